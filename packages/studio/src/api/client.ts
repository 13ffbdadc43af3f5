import type { CasesFilter, CasesFile, MemoryView, ScheduleView, SessionDetail, SessionInfo, StreamEvent, TurnFeedback } from "./types";
import { readEventStream } from "./event-stream";

/** What a request that got no answer says. */
export const UNREACHABLE = "Can't reach the Studio server. Is `june studio` still running? Retrying…";

/** True for an error of a request that got no answer (the server is down or unreachable). */
export function isUnreachable(error: unknown): boolean {
  return error instanceof ApiError && error.status === 0;
}

/** An HTTP error from the chat API, with the server's `{ error }` message when it sent one (status 0: no answer). */
export class ApiError extends Error {
  override readonly name = "ApiError";
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** What the stream of one turn tells its reader, besides the events. */
export interface TurnStream {
  /** The turn's id, from the `x-june-turn-id` header when the server sent it. */
  turnId?: string;
  events: AsyncIterable<{ id?: string; event: StreamEvent }>;
}

/**
 * Talks to June's chat HTTP API under `base` (Studio's own `/api`), sending Studio's token with every
 * request. The token comes from the page URL, where `june studio` puts it.
 */
export class StudioClient {
  private readonly reachabilityListeners = new Set<(reachable: boolean) => void>();
  private reachable = true;

  constructor(
    private readonly base: string,
    private readonly token: string | null,
  ) {}

  /** Calls `listener` whenever requests stop getting answers (`false`) or get one again (`true`). */
  onReachability(listener: (reachable: boolean) => void): () => void {
    this.reachabilityListeners.add(listener);
    return () => this.reachabilityListeners.delete(listener);
  }

  /** True until a request gets no answer, and again once one does. */
  get isReachable(): boolean {
    return this.reachable;
  }

  private setReachable(reachable: boolean): void {
    if (this.reachable === reachable) return;
    this.reachable = reachable;
    for (const listener of [...this.reachabilityListeners]) listener(reachable);
  }

  async listSessions(): Promise<SessionInfo[]> {
    const body = await this.json<{ sessions: SessionInfo[] } | SessionInfo[]>("GET", "/sessions");
    return Array.isArray(body) ? body : body.sessions;
  }

  /** The chat's schedules (`GET /schedules`, read only); `undefined` when the chat has no queue. */
  async listSchedules(): Promise<ScheduleView[] | undefined> {
    try {
      const listed = await this.json<{ schedules: ScheduleView[]; queue?: false }>("GET", "/schedules");
      return listed.queue === false ? undefined : listed.schedules;
    } catch (error) {
      if (error instanceof ApiError && (error.status === 501 || error.status === 404)) return undefined;
      throw error;
    }
  }

  /** An owner's working memory and its versions (`GET /memory?owner=`); `undefined` when the chat keeps none (404). */
  async getMemory(owner: string): Promise<MemoryView | undefined> {
    try {
      return await this.json<MemoryView>("GET", `/memory?owner=${encodeURIComponent(owner)}`);
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return undefined;
      throw error;
    }
  }

  /** Forgets an owner's memory: the working memory, its versions and their recall index (`DELETE /memory`). */
  async forgetMemory(owner: string): Promise<void> {
    await this.request("DELETE", `/memory?owner=${encodeURIComponent(owner)}`);
  }

  createSession(): Promise<SessionInfo> {
    return this.json("POST", "/sessions", {});
  }

  getSession(id: string): Promise<SessionDetail> {
    return this.json("GET", `/sessions/${encodeURIComponent(id)}`);
  }

  /** Renames a session; resolves to it as the server now lists it. */
  renameSession(id: string, title: string): Promise<SessionInfo> {
    return this.json("PUT", `/sessions/${encodeURIComponent(id)}/title`, { title });
  }

  async deleteSession(id: string): Promise<void> {
    await this.request("DELETE", `/sessions/${encodeURIComponent(id)}`);
  }

  /**
   * Starts a turn and reads its events as they come. With files, the request is `multipart/form-data`: the
   * text as `input`, each file as a `files` part (its bytes as they are, its type and name its own).
   */
  async sendTurn(sessionId: string, input: string, signal?: AbortSignal, files: readonly File[] = []): Promise<TurnStream> {
    const path = `/sessions/${encodeURIComponent(sessionId)}/turns`;
    let body: unknown = { input };
    if (files.length > 0) {
      const form = new FormData();
      form.append("input", input);
      for (const file of files) form.append("files", file, file.name);
      body = form;
    }
    const response = await this.request("POST", path, body, signal);
    return this.stream(response);
  }

  /**
   * Where a file a turn of the session sent is served (`GET /sessions/:id/files/:fileId`): an `<img src>` or a
   * link, which carry the Studio cookie the page's token set, not the token header.
   */
  fileUrl(sessionId: string, fileId: string): string {
    return `${this.base}/sessions/${encodeURIComponent(sessionId)}/files/${encodeURIComponent(fileId)}`;
  }

  /** Answers a turn's input again on a new branch, made current, and reads the new turn's events. */
  async regenerateTurn(sessionId: string, turnId: string, signal?: AbortSignal): Promise<TurnStream> {
    const response = await this.request("POST", `${this.turnPath(sessionId, turnId)}/regenerate`, {}, signal);
    return this.stream(response);
  }

  /** Sends `input` in a turn's place on a new branch, made current, and reads the new turn's events. */
  async editTurn(sessionId: string, turnId: string, input: string, signal?: AbortSignal): Promise<TurnStream> {
    const response = await this.request("POST", `${this.turnPath(sessionId, turnId)}/edit`, { input }, signal);
    return this.stream(response);
  }

  /** Makes the branch through a turn current; resolves to the session with that branch's turns. */
  checkout(sessionId: string, turnId: string): Promise<SessionDetail> {
    return this.json("POST", `/sessions/${encodeURIComponent(sessionId)}/checkout`, { turnId });
  }

  private turnPath(sessionId: string, turnId: string): string {
    return `/sessions/${encodeURIComponent(sessionId)}/turns/${encodeURIComponent(turnId)}`;
  }

  /** Rejoins a running turn: its events again from the start, or after `lastEventId`. */
  async turnEvents(turnId: string, lastEventId?: string, signal?: AbortSignal): Promise<TurnStream> {
    const headers: Record<string, string> = lastEventId ? { "last-event-id": lastEventId } : {};
    const response = await this.request("GET", `/turns/${encodeURIComponent(turnId)}/events`, undefined, signal, headers);
    return this.stream(response);
  }

  /**
   * A turn's events if the server still has them, else `undefined` (a turn that ended long ago, or whose
   * process went away): asked with `?missing=empty`, so a gone turn is a 204, not a 404 in the console.
   */
  async turnEventsIfKept(turnId: string, signal?: AbortSignal): Promise<TurnStream | undefined> {
    const response = await this.request("GET", `/turns/${encodeURIComponent(turnId)}/events?missing=empty`, undefined, signal);
    if (response.status === 204) return undefined;
    return this.stream(response);
  }

  /**
   * Approves a request of a turn of the session, wherever it runs (a suspended one is resumed first); with
   * `input`, the tool runs with it (the server checks it against the tool's schema: a 400 says what is wrong).
   */
  approve(sessionId: string, turnId: string, approvalId: string, input?: unknown): Promise<unknown> {
    return this.json("POST", `${this.turnPath(sessionId, turnId)}/approve`, { approvalId, ...(input !== undefined && { input }) });
  }

  /** Answers a question (`input-request`) of a turn of the session: `value` is what the model gets as the tool's result. */
  answer(sessionId: string, turnId: string, requestId: string, value: string): Promise<unknown> {
    return this.json("POST", `${this.turnPath(sessionId, turnId)}/answer`, { requestId, value });
  }

  /** Denies a request of a turn of the session, wherever it runs (a suspended one is resumed first). */
  deny(sessionId: string, turnId: string, approvalId: string, reason: string): Promise<unknown> {
    return this.json("POST", `${this.turnPath(sessionId, turnId)}/deny`, { approvalId, reason });
  }

  /**
   * Ends a turn of the session: a running one, wherever it runs, is canceled; a suspended (or interrupted)
   * durable one no process runs is ended without running anything (journaled canceled).
   */
  cancel(sessionId: string, turnId: string): Promise<unknown> {
    return this.json("POST", `${this.turnPath(sessionId, turnId)}/cancel`, {});
  }

  /** Steers a running turn of the session, wherever it runs: `input` reaches the model before its next step. */
  steer(sessionId: string, turnId: string, input: string): Promise<unknown> {
    return this.json("POST", `${this.turnPath(sessionId, turnId)}/steer`, { input });
  }

  /** Journals feedback on a completed turn; it supersedes any earlier feedback on that turn. */
  feedback(sessionId: string, turnId: string, feedback: TurnFeedback): Promise<unknown> {
    return this.json("POST", `/sessions/${encodeURIComponent(sessionId)}/turns/${encodeURIComponent(turnId)}/feedback`, feedback);
  }

  /**
   * The session's eval cases as a JSONL file (credentials redacted by the server): every completed turn,
   * or only those rated up or down. Named as the server's `content-disposition` says.
   */
  async exportCases(sessionId: string, filter: CasesFilter): Promise<CasesFile> {
    const response = await this.request("GET", `/sessions/${encodeURIComponent(sessionId)}/cases?filter=${filter}`);
    const filename = attachmentName(response.headers.get("content-disposition")) ?? `${sessionId}-cases.jsonl`;
    return { blob: await response.blob(), filename };
  }

  private stream(response: Response): TurnStream {
    if (!response.body) throw new ApiError(response.status, "The server sent no event stream");
    return {
      turnId: response.headers.get("x-june-turn-id") ?? undefined,
      events: readEventStream(response.body),
    };
  }

  private async json<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await this.request(method, path, body);
    const text = await response.text();
    return (text ? JSON.parse(text) : undefined) as T;
  }

  private async request(
    method: string,
    path: string,
    body?: unknown,
    signal?: AbortSignal,
    extraHeaders: Record<string, string> = {},
  ): Promise<Response> {
    const headers: Record<string, string> = { ...extraHeaders };
    if (this.token) headers["x-june-token"] = this.token;
    // A form's content type (with its boundary) is the browser's to write.
    const form = body instanceof FormData;
    if (body !== undefined && !form) headers["content-type"] = "application/json";
    let response: Response;
    try {
      response = await fetch(`${this.base}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : form ? body : JSON.stringify(body),
        credentials: "same-origin",
        signal,
      });
    } catch (caught) {
      if (signal?.aborted) throw caught;
      // fetch rejects only when no answer came: the server is down or the network is gone.
      this.setReachable(false);
      throw new ApiError(0, UNREACHABLE);
    }
    this.setReachable(true);
    if (!response.ok) throw new ApiError(response.status, await errorMessage(response));
    return response;
  }
}

/** The file name in a `content-disposition: attachment` header: `filename*` (UTF-8) first, then `filename`. */
function attachmentName(header: string | null): string | undefined {
  if (!header) return undefined;
  const extended = /filename\*=UTF-8''([^;]+)/i.exec(header);
  if (extended) {
    try {
      return decodeURIComponent(extended[1]!.trim());
    } catch {
      // A malformed encoding: fall back to the plain name.
    }
  }
  const plain = /filename="([^"]*)"|filename=([^;\s]+)/i.exec(header);
  return plain ? (plain[1] ?? plain[2]) : undefined;
}

async function errorMessage(response: Response): Promise<string> {
  if (response.status === 401) {
    return "This Studio link has no valid token. Open the exact URL `june studio` printed.";
  }
  try {
    const body = (await response.json()) as { error?: unknown };
    if (typeof body.error === "string") return body.error;
    if (body.error && typeof body.error === "object" && "message" in body.error) {
      return String((body.error as { message: unknown }).message);
    }
  } catch {
    // Not JSON: fall through to the status line.
  }
  return `${response.status} ${response.statusText || "request failed"}`;
}

/** The client for this page: the API beside it, with the token from the page's URL. */
export function clientForPage(location: Location = window.location): StudioClient {
  const token = new URLSearchParams(location.search).get("token");
  const base = new URL("api", new URL(".", location.href)).pathname.replace(/\/$/, "");
  return new StudioClient(base, token);
}
