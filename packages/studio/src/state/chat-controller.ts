import { isUnreachable, type StudioClient, type TurnStream } from "../api/client";
import type { CasesFile, CasesFilter, ChatTraceRow, SessionDetail, StreamEvent, TurnFeedback, TurnRecord } from "../api/types";
import { liveOf, type ChatSnapshot, type LiveFile, type LiveTurn, type SuspendedDecision } from "./chat-snapshot";
import { message } from "./message";

export interface ChatControllerOptions {
  client: StudioClient;
  /** Called when what the sidebar lists may have changed: a turn was journaled, a branch checked out, a send failed. */
  onSessionsChanged?: () => void;
}

const RESUME_ATTEMPTS = 3;
/** How many recent ended turns get their trace back from the server's replay after a reload. */
const REPLAYED_TRACES = 10;
const NO_BRANCHES: Readonly<Record<string, string[]>> = Object.freeze({});

const EMPTY: ChatSnapshot = Object.freeze({
  sessionId: null,
  detail: null,
  loading: false,
  error: null,
  live: null,
  traces: Object.freeze({}),
  thoughts: Object.freeze({}),
  branches: NO_BRANCHES,
});

/**
 * The open session of a Studio page, with no React in it: its journaled turns, the turn running now and the
 * controls of that turn. Views read it through `subscribe` and `getSnapshot` (what `useSyncExternalStore`
 * takes), and act through its methods; the methods never throw for a failure the pane shows (`error`), except
 * where the caller keeps something (a draft: `send` rethrows "server unreachable"; a reason: `approve`, `deny`).
 * Modelled on the AI SDK's `AbstractChat`: the state lives here, a framework hook only subscribes.
 */
export class ChatController {
  readonly #client: StudioClient;
  readonly #onSessionsChanged: () => void;
  readonly #listeners = new Set<() => void>();
  #state: ChatSnapshot = EMPTY;
  /** Aborted when the page moves to another session (or reloads this one): everything started for it stops. */
  #page: AbortController | undefined;
  #queued: { sessionId: string; input: string; files: readonly File[] } | null = null;
  // Traces live only in this page: keep each session's, so switching away and back keeps them.
  readonly #traceCache = new Map<string, Record<string, ChatTraceRow[]>>();
  readonly #thoughtCache = new Map<string, Record<string, { reasoning: string; ms?: number }>>();

  constructor(options: ChatControllerOptions) {
    this.#client = options.client;
    this.#onSessionsChanged = options.onSessionsChanged ?? (() => {});
  }

  /** Calls `listener` after every change of the snapshot; returns the unsubscribe. */
  readonly subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  /** The current state; the same object until something changes. */
  readonly getSnapshot = (): ChatSnapshot => this.#state;

  /**
   * Opens a session (or none): what was started for the one before stops, and the session is read, its
   * running turn rejoined (or a queued first message sent) and recent traces recovered. Opening the session
   * already open does nothing; `reload` reads it again.
   */
  open(sessionId: string | null): void {
    if (this.#page && sessionId === this.#state.sessionId) return;
    this.#load(sessionId);
  }

  /** Reads the open session again (after the server came back), rejoining its running turn. */
  reload(): void {
    this.#load(this.#state.sessionId);
  }

  /** Stops everything this controller started (the page is going away). */
  dispose(): void {
    this.#page?.abort();
    this.#page = undefined;
  }

  /**
   * Sends a message in the open session, streamed into `live`. Rejects only when the server gave no answer
   * (the composer keeps the draft); other failures show as `error`. Ignored while a turn runs.
   */
  async send(input: string, files: readonly File[] = []): Promise<void> {
    const { sessionId, live } = this.#state;
    if (!sessionId || live?.status === "running") return;
    await this.#start(sessionId, input, { files });
  }

  /** Sends `input` (and `files`) as soon as `sessionId` is open (a new session's first message). */
  queue(sessionId: string, input: string, files: readonly File[] = []): void {
    this.#queued = { sessionId, input, files };
  }

  /** Where the open session serves a file one of its turns sent (for an `<img>` or a link). */
  fileUrl(fileId: string): string {
    return this.#client.fileUrl(this.#state.sessionId ?? "", fileId);
  }

  /** A journaled turn's files, where the page shows them from. */
  filesOf(record: TurnRecord): LiveFile[] {
    // The journal's references (`TurnRecord.files`): the bytes are the session's file route's.
    return (record.files ?? []).map((file) => ({
      key: file.id,
      url: this.fileUrl(file.id),
      mediaType: file.mediaType,
      ...(file.filename !== undefined && { filename: file.filename }),
      size: file.size,
    }));
  }

  cancel(): Promise<void> {
    return this.#control((turnId, sessionId) => this.#client.cancel(sessionId, turnId));
  }

  steer(input: string): Promise<void> {
    return this.#control(async (turnId, sessionId) => {
      await this.#client.steer(sessionId, turnId, input);
      this.#setLive((turn) => ({ ...turn, steers: [...turn.steers, input] }));
    }, true);
  }

  /** Approves a request of the live turn; with `input` (an edit), the tool runs with it. */
  approve(approvalId: string, input?: unknown): Promise<void> {
    return this.#control((turnId, sessionId) => this.#client.approve(sessionId, turnId, approvalId, input), true);
  }

  deny(approvalId: string, reason: string): Promise<void> {
    return this.#control((turnId, sessionId) => this.#client.deny(sessionId, turnId, approvalId, reason), true);
  }

  /** Answers a question of the live turn; once the server took it, the question goes. */
  answer(requestId: string, value: string): Promise<void> {
    return this.#control(async (turnId, sessionId) => {
      await this.#client.answer(sessionId, turnId, requestId, value);
      this.#setLive((turn) => ({ ...turn, questions: (turn.questions ?? []).filter((q) => q.id !== requestId) }));
    }, true);
  }

  /**
   * Decides a request of a suspended (or interrupted, resumable) durable turn, listed in `detail.pendingApprovals`:
   * the server resumes the turn and decides, and the rest of the turn streams in `live` like any running turn.
   * Rejects when the server refused (decided elsewhere, gone): the row shows why.
   */
  async decideSuspended(turnId: string, approvalId: string, decision: SuspendedDecision): Promise<void> {
    const { sessionId, detail, live } = this.#state;
    const signal = this.#page?.signal;
    const record = detail?.turns.find((turn) => turn.id === turnId);
    if (!sessionId || !signal || !record || live?.status === "running") return;
    if (decision.approve) await this.#client.approve(sessionId, turnId, approvalId, decision.input);
    else await this.#client.deny(sessionId, turnId, approvalId, decision.reason);
    this.#update({ error: null });
    this.#setLive(liveOf(record, this.filesOf(record)));
    // The resumed turn's events from its first: its trace and the rest of the reply, live.
    void this.#follow(sessionId, () => this.#client.turnEvents(turnId, undefined, signal), signal).catch((caught) => {
      if (signal.aborted) return;
      this.#update({ live: null, error: message(caught) });
    });
  }

  /**
   * Ends a suspended (or interrupted, resumable) durable turn without running anything: the server journals
   * it canceled and deletes its checkpoint; the session is read again. A refusal (a process resumed it
   * meanwhile: busy) shows as the pane's error.
   */
  async cancelSuspended(turnId: string): Promise<void> {
    const { sessionId, live } = this.#state;
    const signal = this.#page?.signal;
    if (!sessionId || !signal || live?.status === "running") return;
    try {
      await this.#client.cancel(sessionId, turnId);
      const next = await this.#client.getSession(sessionId);
      if (signal.aborted) return;
      this.#setDetail(next);
      this.#update({ error: null });
      this.#onSessionsChanged();
    } catch (caught) {
      if (!signal.aborted) this.#update({ error: message(caught) });
    }
  }

  /** Answers a turn's input again on a new branch, streamed like a send. */
  async regenerate(turnId: string): Promise<void> {
    const { sessionId, detail, live } = this.#state;
    const record = detail?.turns.find((turn) => turn.id === turnId);
    if (!sessionId || !record || live?.status === "running") return;
    await this.#start(sessionId, record.input, { open: (signal) => this.#client.regenerateTurn(sessionId, turnId, signal), replaces: turnId, shown: this.filesOf(record) }).catch((caught) =>
      this.#update({ error: message(caught) }),
    );
  }

  /** Sends `input` in a turn's place on a new branch, streamed like a send. */
  async edit(turnId: string, input: string): Promise<void> {
    const { sessionId, live } = this.#state;
    if (!sessionId || live?.status === "running") return;
    await this.#start(sessionId, input, { open: (signal) => this.#client.editTurn(sessionId, turnId, input, signal), replaces: turnId }).catch((caught) =>
      this.#update({ error: message(caught) }),
    );
  }

  /** Makes the branch through a turn current and shows its turns (and the alternatives along it). */
  async checkout(turnId: string): Promise<void> {
    const { sessionId, live } = this.#state;
    const signal = this.#page?.signal;
    if (!sessionId || !signal || live?.status === "running") return;
    try {
      await this.#client.checkout(sessionId, turnId);
      const next = await this.#client.getSession(sessionId);
      if (!signal.aborted) this.#setDetail(next);
      this.#onSessionsChanged();
    } catch (caught) {
      if (!signal.aborted) this.#update({ error: message(caught) });
    }
  }

  /** Sends feedback on a completed turn of this session; the turn shows it once the server took it. */
  async feedback(turnId: string, feedback: TurnFeedback): Promise<void> {
    const { sessionId } = this.#state;
    if (!sessionId) return;
    await this.#client.feedback(sessionId, turnId, feedback);
    const { detail } = this.#state;
    if (detail && detail.id === sessionId) {
      this.#setDetail({ ...detail, turns: detail.turns.map((turn) => (turn.id === turnId ? { ...turn, feedback } : turn)) });
    }
  }

  /** This session's eval cases as a JSONL file, all of them or those rated up or down. */
  exportCases(filter: CasesFilter): Promise<CasesFile> {
    const { sessionId } = this.#state;
    if (!sessionId) return Promise.reject(new Error("Open a session to export its eval cases"));
    return this.#client.exportCases(sessionId, filter);
  }

  dismissError(): void {
    if (this.#state.error !== null) this.#update({ error: null });
  }

  #update(patch: Partial<ChatSnapshot>): void {
    this.#state = { ...this.#state, ...patch };
    for (const listener of [...this.#listeners]) listener();
  }

  #setDetail(detail: SessionDetail | null): void {
    this.#update({ detail, branches: detail?.branches ?? NO_BRANCHES });
  }

  /** Replaces the live turn, or (a function) updates it; an update with no live turn leaves none. */
  #setLive(update: LiveTurn | null | ((current: LiveTurn) => LiveTurn)): void {
    const current = this.#state.live;
    const next = typeof update === "function" ? (current ? update(current) : null) : update;
    if (next !== current) this.#update({ live: next });
  }

  #keepTrace(session: string, turnId: string, rows: ChatTraceRow[]): void {
    const all = { ...(this.#traceCache.get(session) ?? {}), [turnId]: rows };
    this.#traceCache.set(session, all);
    if (this.#state.sessionId === session) this.#update({ traces: all });
  }

  #load(sessionId: string | null): void {
    this.#page?.abort();
    const page = new AbortController();
    this.#page = page;
    const signal = page.signal;
    this.#update({
      sessionId,
      live: null,
      detail: null,
      branches: NO_BRANCHES,
      error: null,
      traces: sessionId ? (this.#traceCache.get(sessionId) ?? {}) : {},
      thoughts: sessionId ? (this.#thoughtCache.get(sessionId) ?? {}) : {},
      loading: sessionId !== null,
    });
    if (!sessionId) return;
    this.#client
      .getSession(sessionId)
      .then((loaded) => {
        if (signal.aborted) return;
        this.#setDetail(loaded);
        this.#update({ loading: false });
        const pending = this.#queued;
        const running = loaded.runningTurnId ? loaded.turns.find((turn) => turn.id === loaded.runningTurnId) : undefined;
        if (pending && pending.sessionId === sessionId) {
          this.#queued = null;
          this.#start(sessionId, pending.input, { files: pending.files }).catch((caught) => this.#update({ error: message(caught) }));
        } else if (running) {
          void this.#rejoin(sessionId, running, signal);
        }
        void this.#recoverTraces(sessionId, loaded, signal);
      })
      .catch((caught) => {
        if (signal.aborted) return;
        this.#update({ loading: false, error: message(caught) });
      });
  }

  /**
   * Starts a turn: a send (with its `files`), or a regenerate or edit (`open`) when `replaces` names the turn it
   * takes the place of (`shown`: the files that turn sent, shown with it again).
   */
  async #start(
    session: string,
    input: string,
    options: { open?: (signal: AbortSignal) => Promise<TurnStream>; replaces?: string; files?: readonly File[]; shown?: LiveFile[] } = {},
  ): Promise<void> {
    const { open, replaces, files = [] } = options;
    const signal = this.#page?.signal;
    if (!signal) return;
    this.#update({ error: null });
    const key = `live-${Date.now()}`;
    // Shown from the page's own copies until the turn is journaled; the server's once it is.
    const previews = files.map((file, index): LiveFile => ({ key: `${key}-${index}`, url: URL.createObjectURL(file), mediaType: file.type || "application/octet-stream", filename: file.name, size: file.size }));
    const shown = previews.length > 0 ? previews : (options.shown ?? []);
    this.#setLive({ key, input, ...(shown.length > 0 && { files: shown }), steers: [], text: "", rows: [], status: "running", ...(replaces && { replaces }) });
    try {
      await this.#follow(session, () => (open ? open(signal) : this.#client.sendTurn(session, input, signal, files)), signal);
    } catch (caught) {
      if (signal.aborted) return;
      this.#setLive(null);
      // No answer at all: the turn never started. The caller keeps the typed message and says why.
      if (isUnreachable(caught)) throw caught;
      this.#update({ error: message(caught) });
      this.#onSessionsChanged();
    } finally {
      // The journaled turn shows the server's copies: the page's own go once nothing shows them.
      if (this.#state.live?.key !== key) for (const preview of previews) URL.revokeObjectURL(preview.url);
    }
  }

  /** Shows a turn another page (or process) runs, from its events so far, if the server still has them. */
  async #rejoin(session: string, record: TurnRecord, signal: AbortSignal): Promise<void> {
    this.#setLive(liveOf(record, this.filesOf(record)));
    try {
      const stream = await this.#client.turnEventsIfKept(record.id, signal);
      // The server no longer has the turn (it ran in a process that is gone): show the journaled record as it is.
      if (!stream) {
        if (!signal.aborted) this.#setLive(null);
        return;
      }
      await this.#follow(session, async () => stream, signal);
    } catch {
      if (!signal.aborted) this.#setLive(null);
    }
  }

  /** Reads a turn's stream into `live` until `turn-end`, rejoining from the last event id if it drops. */
  async #follow(session: string, open: () => Promise<TurnStream>, signal: AbortSignal): Promise<void> {
    let lastEventId: string | undefined;
    let ended = false;
    // The sidebar's title and turn count change once the turn is journaled: by its first event after `turn-start`.
    let listed = false;
    let stream: TurnStream | undefined = await open();
    for (let attempt = 0; stream && !ended && !signal.aborted; attempt++) {
      const turnId = stream.turnId;
      if (turnId) this.#setLive((turn) => ({ ...turn, turnId }));
      for await (const { id, event } of stream.events) {
        if (signal.aborted) return;
        if (id) lastEventId = id;
        ended = this.#apply(event) || ended;
        if (!listed && event.type !== "turn-start") {
          listed = true;
          this.#onSessionsChanged();
        }
      }
      const rejoinId = this.#state.live?.turnId;
      stream = undefined;
      if (!ended && !signal.aborted && rejoinId && attempt < RESUME_ATTEMPTS) {
        stream = await this.#client.turnEvents(rejoinId, lastEventId, signal).catch(() => undefined);
      }
    }
    if (signal.aborted) return;
    const finished = this.#state.live;
    if (finished?.turnId) this.#keepTrace(session, finished.turnId, finished.rows);
    if (finished?.turnId && finished.reasoning) {
      const all = { ...(this.#thoughtCache.get(session) ?? {}), [finished.turnId]: { reasoning: finished.reasoning, ...(finished.reasoningMs !== undefined && { ms: finished.reasoningMs }) } };
      this.#thoughtCache.set(session, all);
      if (this.#state.sessionId === session) this.#update({ thoughts: all });
    }
    if (!ended) this.#setLive((turn) => ({ ...turn, status: "failed", error: { name: "Disconnected", message: "Lost the turn's event stream." } }));
    const next = await this.#client.getSession(session).catch(() => null);
    if (signal.aborted) return;
    if (next) {
      this.#setDetail(next);
      // The next turn may have started while this read was in flight: leave that one in place.
      const stillOurs = this.#state.live?.key === finished?.key;
      if (stillOurs && (ended || next.turns.some((turn) => turn.id === finished?.turnId))) this.#setLive(null);
    }
    this.#onSessionsChanged();
  }

  /** Folds one event into `live`; true for the turn's end. */
  #apply(event: StreamEvent): boolean {
    switch (event.type) {
      case "turn-start":
        this.#setLive((turn) => ({ ...turn, turnId: event.turnId ?? turn.turnId }));
        return false;
      case "text-delta":
        this.#setLive((turn) => ({ ...turn, text: turn.text + event.text }));
        return false;
      case "reasoning-start":
        this.#setLive((turn) => ({ ...turn, reasoning: turn.reasoning ? `${turn.reasoning}\n\n` : "", reasoningStartedAt: turn.reasoningStartedAt ?? Date.now() }));
        return false;
      case "reasoning-delta":
        this.#setLive((turn) => ({ ...turn, reasoning: (turn.reasoning ?? "") + event.text, reasoningStartedAt: turn.reasoningStartedAt ?? Date.now() }));
        return false;
      case "reasoning-end":
        this.#setLive((turn) => ({ ...turn, reasoningMs: Date.now() - (turn.reasoningStartedAt ?? Date.now()) }));
        return false;
      case "source":
        this.#setLive((turn) => ({ ...turn, sources: [...(turn.sources ?? []), event.source] }));
        return false;
      case "run-update":
        this.#setLive((turn) => ({ ...turn, rows: event.rows }));
        return false;
      case "approval-request":
        // The next run-update's approval row carries the buttons; nothing else to do.
        return false;
      case "input-request": {
        const { id, question } = event.request;
        this.#setLive((turn) => ({ ...turn, questions: [...(turn.questions ?? []).filter((q) => q.id !== id), { id, question }] }));
        return false;
      }
      case "policy-decision":
        // The run-update that came with it shows the call decided by policy, and why.
        return false;
      case "turn-end":
        this.#setLive((turn) => ({ ...turn, status: event.status, text: event.text ?? turn.text, error: event.error, questions: [] }));
        return true;
      default: {
        const never: never = event;
        void never;
        return false;
      }
    }
  }

  /**
   * Traces are never journaled, but the server keeps recently ended turns' events for replay: after a
   * reload, take each recent turn's last `run-update` from there. Turns it no longer has keep no trace.
   */
  async #recoverTraces(session: string, loaded: SessionDetail, signal: AbortSignal): Promise<void> {
    const known = this.#traceCache.get(session) ?? {};
    const missing = loaded.turns
      .filter((turn) => turn.id !== loaded.runningTurnId && turn.status !== "running" && !known[turn.id])
      .slice(-REPLAYED_TRACES);
    for (const turn of missing) {
      if (signal.aborted) return;
      try {
        const stream = await this.#client.turnEventsIfKept(turn.id, signal);
        if (!stream) continue;
        let rows: ChatTraceRow[] | undefined;
        for await (const { event } of stream.events) if (event.type === "run-update") rows = event.rows;
        if (rows && !signal.aborted) this.#keepTrace(session, turn.id, rows);
      } catch {
        // Gone from the server (or the page moved on): this turn shows no trace.
      }
    }
  }

  /** Runs one control of the running turn; its failure shows as the pane's error (or, with `rethrow`, the caller's). */
  async #control(run: (turnId: string, sessionId: string) => Promise<unknown>, rethrow = false): Promise<void> {
    const turnId = this.#state.live?.turnId;
    const sessionId = this.#state.sessionId;
    if (!turnId || !sessionId) return;
    try {
      await run(turnId, sessionId);
    } catch (caught) {
      if (rethrow) throw caught;
      this.#update({ error: message(caught) });
    }
  }
}
