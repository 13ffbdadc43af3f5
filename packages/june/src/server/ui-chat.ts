import {
  createUIMessageStream,
  createUIMessageStreamResponse,
  type FinishReason,
  readUIMessageStream,
  type UIMessage,
  type UIMessageChunk,
} from "ai";
import type { ChatTraceRow, ChatTraceToolRow } from "../chat/trace/project-chat-trace.js";
import { redact } from "../redaction/redact.js";
import { excerpt } from "../chat/trace/excerpt.js";
import type { Chat, Session, Turn, TurnRecord } from "../chat/types.js";
import { toUIMessages, uiUserMessageId } from "../chat/ui-messages.js";
import { ConflictError, SessionNotFoundError } from "../stores/errors.js";
import { type JsonObject, readJsonObject } from "./body.js";
import { valueKind } from "../errors/value-kind.js";
import type { HandlerContext } from "./create-chat-handler.js";
import { HttpError, json, withInputErrors } from "./http-error.js";
import { inRequestTrace } from "../telemetry/request-trace.js";
import type { RouteContext } from "./router.js";
import { errorSummary, type LiveTurn } from "./turn-registry.js";
import type { TurnStreamEvent } from "./turn-stream-event.js";

/** A tool call the UI stream showed for approval, and what became of it. */
interface UiTool {
  toolCallId: string;
  approvalId: string;
  decision?: { approved: boolean };
  /** True once the client got its outcome (output, error or denial). */
  resolved: boolean;
}

/** How far the UI message streams of one turn got: a turn's reply can span several requests. */
interface UiTurnState {
  /** The index of the next turn event no UI stream has sent. */
  cursor: number;
  tools: Map<string, UiTool>;
}

/** An approval answered by the client with `addToolApprovalResponse`. */
interface ApprovalResponse {
  approvalId: string;
  approved: boolean;
  reason?: string;
}

const uiStates = new WeakMap<LiveTurn, UiTurnState>();

/** A redacted tool input larger than this, as JSON, goes out as a bounded excerpt instead. */
const MAX_TOOL_INPUT_JSON = 16_000;

const FINISH_REASONS: ReadonlySet<string> = new Set(["stop", "length", "content-filter", "tool-calls", "error", "other"]);

/** What `/ui-chat` does when its client goes away mid-stream (`useChat`'s `stop()`, a closed tab). */
export interface UiChatOptions {
  /**
   * Cancel the turn when the client aborts the request before the stream ended (default `true`, so
   * `stop()` stops the turn and the journal says `canceled`). `false` keeps the turn running, as the plain
   * SSE routes always do, for apps that rejoin a turn's stream instead.
   */
  cancelOnDisconnect?: boolean;
}

/**
 * `POST /ui-chat`: the AI SDK UI message stream protocol, so `useChat` and `DefaultChatTransport` talk to a
 * June chat unchanged. The request body is the transport's `{ id, messages, trigger, messageId }`; `id`
 * names the June session (created when new), the last user message's text is the turn's input (the
 * session's journal, not the client's copy, is the history the responder sees). The assistant message's id
 * is the June turn's id.
 *
 * - `trigger: "submit-message"`: a new turn; with `messageId` naming an earlier user message (`sendMessage`
 *   with `messageId`, an edit), `session.edit` of the turn at that message's place.
 * - `trigger: "regenerate-message"`: `session.regenerate` of the turn that answered the last user message
 *   (or `messageId`'s), on a new branch.
 * - Tool approvals are tool parts in state `approval-requested`; the response ends there, and when the
 *   client resends with its `addToolApprovalResponse` answers, they go to the still-running turn's
 *   `approve`/`deny` and the same assistant message continues.
 * - A client that aborts the request before the stream ended cancels the turn, unless
 *   `uiChat: { cancelOnDisconnect: false }`.
 */
export async function handleUiChat({ request }: RouteContext, context: HandlerContext): Promise<Response> {
  // Extra fields are the transport's own `body` option: accepted and ignored.
  const body = await readJsonObject(request, { maxBytes: context.maxBodyBytes });
  const chatId = body.id;
  if (typeof chatId !== "string" || chatId === "") throw new HttpError(400, `"id" must be the chat's id (a string), got ${valueKind(chatId)}`);
  const trigger = body.trigger ?? "submit-message";
  if (trigger !== "submit-message" && trigger !== "regenerate-message") {
    throw new HttpError(400, `"trigger" must be "submit-message" or "regenerate-message", got ${JSON.stringify(trigger)}`);
  }
  const messageId = body.messageId === undefined || body.messageId === null ? undefined : body.messageId;
  if (messageId !== undefined && typeof messageId !== "string") throw new HttpError(400, `"messageId" must be a string, got ${valueKind(messageId)}`);
  const last = lastMessage(body);
  const cancelOnDisconnect = context.uiChat.cancelOnDisconnect ?? true;

  const session = await openOrCreateSession(context.chat, chatId);
  if (last.role === "assistant") {
    if (trigger === "regenerate-message") throw new HttpError(400, `To regenerate, the last message must be the user's`);
    return continueAfterApprovals(session, last, context, { signal: request.signal, cancelOnDisconnect });
  }
  if (last.role !== "user") throw new HttpError(400, `The last message must be the user's, or the assistant's with tool approval responses`);

  let start: () => Turn;
  if (trigger === "regenerate-message") {
    const target = await answeredTurn(session, body, messageId);
    start = () => session.regenerate(target.id);
  } else {
    const input = textOf(last);
    if (input.trim() === "") throw new HttpError(400, "The last user message has no text");
    if (input.length > context.maxInputChars) {
      throw new HttpError(413, `The message is ${input.length} characters, over the limit of ${context.maxInputChars}`);
    }
    const edited = messageId === undefined ? undefined : await editedTurn(session, body);
    start = edited ? () => session.edit(edited.id, input) : () => session.send(input);
  }
  const turn = await withInputErrors(() => inRequestTrace(request, start));
  const live = await context.track(turn);
  const state: UiTurnState = { cursor: 0, tools: new Map() };
  uiStates.set(live, state);
  return uiStream(live, state, { signal: request.signal, messageId: live.id, cancelOnDisconnect });
}

/**
 * `GET /sessions/:id/ui-messages`: the current branch as `UIMessage[]` (see `toUIMessages`); a turn running
 * in this process shows what its stream showed so far: its text, and its tool parts with their approval
 * state, so a reloaded page can answer an approval and continue the same message.
 */
export async function handleUiMessages({ params }: RouteContext, context: HandlerContext): Promise<Response> {
  const session = await context.chat.openSession(params.id);
  const turns = await session.turns();
  const messages = toUIMessages(turns);
  const running = session.currentTurn;
  if (running && running.status === "running" && turns.some((turn) => turn.id === running.id)) {
    const live = await context.track(running);
    const snapshot = await liveMessage(live);
    const index = messages.findIndex((message) => message.id === live.id);
    if (index === -1) messages.push(snapshot);
    else messages[index] = snapshot;
  }
  return json(200, messages);
}

/** The assistant message a UI stream of the turn would have built so far. */
async function liveMessage(live: LiveTurn): Promise<UIMessage> {
  const chunks: UIMessageChunk[] = [];
  const state = shownState(live, (chunk) => chunks.push(chunk));
  if (!uiStates.has(live)) uiStates.set(live, state);
  const stream = new ReadableStream<UIMessageChunk>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  let message: UIMessage = { id: live.id, role: "assistant", parts: [] };
  for await (const state of readUIMessageStream({ stream })) message = state;
  return { ...message, metadata: { turnStatus: "running" } };
}

/** The state of a UI stream that showed every event of the turn so far (writing its chunks to `write`). */
function shownState(live: LiveTurn, write: (chunk: UIMessageChunk) => void): UiTurnState {
  const state: UiTurnState = { cursor: 0, tools: new Map() };
  const chunker = new UiChunker(live, state, write);
  write({ type: "start", messageId: live.id });
  write({ type: "start-step" });
  while (state.cursor < live.length) {
    const event = live.events[state.cursor];
    state.cursor++;
    chunker.handle(event);
  }
  chunker.endText();
  write({ type: "finish-step" });
  write({ type: "finish", finishReason: "tool-calls" });
  return state;
}

/** The turn a regenerate request answers again: `messageId`'s, else the one at the last user message's place. */
async function answeredTurn(session: Session, body: JsonObject, messageId: string | undefined): Promise<TurnRecord> {
  const branch = await session.turns();
  if (messageId !== undefined) {
    const named = branch.find((turn) => turn.id === messageId || uiUserMessageId(turn.id) === messageId);
    if (named) return named;
  }
  const place = userMessageCount(body) - 1;
  const turn = branch[place];
  if (!turn) {
    throw new HttpError(409, `Nothing to regenerate: chat "${session.id}" has ${branch.length} turn(s) on its current branch, and the request's last user message is number ${place + 1}`);
  }
  return turn;
}

/** The turn at the place of the last user message when that place is taken already (an edited message). */
async function editedTurn(session: Session, body: JsonObject): Promise<TurnRecord | undefined> {
  const branch = await session.turns();
  return branch[userMessageCount(body) - 1];
}

function userMessageCount(body: JsonObject): number {
  return (body.messages as unknown[]).filter((message) => typeof message === "object" && message !== null && (message as JsonObject).role === "user").length;
}

async function continueAfterApprovals(
  session: Session,
  message: JsonObject,
  context: HandlerContext,
  options: { signal: AbortSignal; cancelOnDisconnect: boolean },
): Promise<Response> {
  const responses = approvalResponses(message);
  if (responses.length === 0) throw new HttpError(400, "The last message is the assistant's but holds no tool approval responses");
  const live = context.registry.latestForSession(session.id);
  // A turn no UI stream showed yet (started by another route, or shown by `GET .../ui-messages` only).
  const state = live && (uiStates.get(live) ?? adopt(live));
  if (!live || !state) throw new HttpError(409, `No turn of chat "${session.id}" is waiting for these approvals`);
  for (const response of responses) {
    const tool = [...state.tools.values()].find((candidate) => candidate.approvalId === response.approvalId);
    // Unknown here, or already routed by an earlier request: the client resends every answer it holds.
    if (!tool || tool.decision) continue;
    tool.decision = { approved: response.approved };
    if (response.approved) live.turn?.approve(response.approvalId);
    else live.turn?.deny(response.approvalId, response.reason);
  }
  const messageId = typeof message.id === "string" ? message.id : undefined;
  return uiStream(live, state, { ...options, ...(messageId !== undefined && { messageId }) });
}

function adopt(live: LiveTurn): UiTurnState | undefined {
  if (live.ended) return undefined;
  const state = shownState(live, () => {});
  uiStates.set(live, state);
  return state;
}

/** Turns a live turn's events into UI message chunks, tracking what the client was shown in `state`. */
class UiChunker {
  readonly #live: LiveTurn;
  readonly #state: UiTurnState;
  readonly #write: (chunk: UIMessageChunk) => void;
  #textId: string | undefined;
  #textCount = 0;
  finishReason: FinishReason = "stop";

  constructor(live: LiveTurn, state: UiTurnState, write: (chunk: UIMessageChunk) => void) {
    this.#live = live;
    this.#state = state;
    this.#write = write;
  }

  endText(): void {
    if (this.#textId === undefined) return;
    this.#write({ type: "text-end", id: this.#textId });
    this.#textId = undefined;
  }

  /** Denials the client just sent are settled already: shows them at once. */
  showDenials(): void {
    for (const tool of this.#state.tools.values()) {
      if (!tool.resolved && tool.decision && !tool.decision.approved) {
        this.#write({ type: "tool-output-denied", toolCallId: tool.toolCallId });
        tool.resolved = true;
      }
    }
  }

  handle(event: TurnStreamEvent): void {
    const live = this.#live;
    const state = this.#state;
    const write = this.#write;
    switch (event.type) {
      case "turn-start":
        return;
      case "text-delta":
        if (event.text === "") return;
        if (this.#textId === undefined) {
          this.#textId = `${live.id}-text-${state.cursor}-${this.#textCount++}`;
          write({ type: "text-start", id: this.#textId });
        }
        write({ type: "text-delta", id: this.#textId, delta: event.text });
        return;
      case "run-update":
        this.#resolveTools(event.rows);
        return;
      case "approval-request": {
        const { request } = event;
        if (state.tools.has(request.toolCallId)) return;
        this.endText();
        state.tools.set(request.toolCallId, { toolCallId: request.toolCallId, approvalId: request.id, resolved: false });
        write({
          type: "tool-input-available",
          toolCallId: request.toolCallId,
          toolName: request.toolName,
          input: toolInput(live, request.id, request.input),
          dynamic: true,
        });
        write({ type: "tool-approval-request", approvalId: request.id, toolCallId: request.toolCallId });
        return;
      }
      case "turn-end":
        this.endText();
        this.#settleTools(event.status);
        if (event.status === "failed") {
          const error = event.error ?? { name: "Error", message: "The turn failed" };
          write({ type: "error", errorText: `${error.name}: ${error.message}` });
          this.finishReason = "error";
        } else if (event.status === "canceled") {
          write({ type: "abort", reason: "The turn was canceled" });
          this.finishReason = "other";
        } else {
          const reason = event.metadata?.finishReason;
          this.finishReason = reason !== undefined && FINISH_REASONS.has(reason) ? (reason as FinishReason) : "stop";
        }
        return;
      default: {
        const unreachable: never = event;
        void unreachable;
      }
    }
  }

  /** Tool calls the client was shown, settled as the trace shows them. */
  #resolveTools(rows: readonly ChatTraceRow[]): void {
    for (const tool of this.#state.tools.values()) {
      if (tool.resolved) continue;
      const row = findToolRow(rows, tool.toolCallId);
      if (!row) continue;
      if (row.approval?.state === "denied") {
        this.#write({ type: "tool-output-denied", toolCallId: tool.toolCallId });
      } else if (row.status === "done") {
        this.#write({ type: "tool-output-available", toolCallId: tool.toolCallId, output: row.output ?? null, dynamic: true });
      } else if (row.status === "error") {
        this.#write({ type: "tool-output-error", toolCallId: tool.toolCallId, errorText: row.error ?? `${row.toolName} failed`, dynamic: true });
      } else {
        continue;
      }
      tool.resolved = true;
    }
  }

  /** At the turn's end every tool call shown gets an outcome, so the client never resends for it. */
  #settleTools(status: "completed" | "failed" | "canceled" | "suspended"): void {
    for (const tool of this.#state.tools.values()) {
      if (tool.resolved) continue;
      tool.resolved = true;
      if (tool.decision && !tool.decision.approved) {
        this.#write({ type: "tool-output-denied", toolCallId: tool.toolCallId });
      } else if (status === "completed" && tool.decision) {
        this.#write({ type: "tool-output-available", toolCallId: tool.toolCallId, output: null, dynamic: true });
      } else {
        this.#write({ type: "tool-output-error", toolCallId: tool.toolCallId, errorText: `The turn ${status === "completed" ? "ended" : status} before the tool ran`, dynamic: true });
      }
    }
  }
}

/**
 * Streams the turn's events from where the last UI stream of this turn stopped, as UI message chunks,
 * until the turn ends or waits for an approval only the client can give. A client that goes away before
 * the end cancels the turn when `cancelOnDisconnect`.
 */
function uiStream(live: LiveTurn, state: UiTurnState, options: { signal: AbortSignal; messageId?: string; cancelOnDisconnect: boolean }): Response {
  const { signal } = options;
  let finished = false;
  const disconnected = () => {
    signal.removeEventListener("abort", disconnected);
    if (finished || !options.cancelOnDisconnect || live.ended) return;
    finished = true;
    live.turn?.cancel();
  };
  signal.addEventListener("abort", disconnected, { once: true });
  const stream = createUIMessageStream({
    onError: (error) => {
      const { name, message } = errorSummary(error, live.redaction);
      return `${name}: ${message}`;
    },
    execute: async ({ writer }) => {
      const write = (chunk: UIMessageChunk) => writer.write(chunk);
      const chunker = new UiChunker(live, state, write);
      write(options.messageId !== undefined ? { type: "start", messageId: options.messageId } : { type: "start" });
      write({ type: "start-step" });
      chunker.showDenials();
      for (;;) {
        if (signal.aborted) return;
        if (state.cursor < live.length) {
          const event = live.events[state.cursor];
          state.cursor++;
          chunker.handle(event);
          if (event.type === "turn-end") break;
          continue;
        }
        if (awaitsClient(live, state)) {
          chunker.finishReason = "tool-calls";
          break;
        }
        await live.waitFor(state.cursor, signal);
      }
      finished = true;
      signal.removeEventListener("abort", disconnected);
      chunker.endText();
      write({ type: "finish-step" });
      write({ type: "finish", finishReason: chunker.finishReason });
    },
  });
  return createUIMessageStreamResponse({
    stream: onCancel(stream, disconnected),
    headers: { "x-june-turn-id": live.id, "x-june-session-id": live.sessionId },
  });
}

/** `stream`, calling `cancel` when its reader cancels it (a runtime whose request signal never aborts). */
function onCancel<T>(stream: ReadableStream<T>, cancel: () => void): ReadableStream<T> {
  const reader = stream.getReader();
  return new ReadableStream<T>({
    async pull(controller) {
      const next = await reader.read();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    cancel(reason) {
      cancel();
      return reader.cancel(reason);
    },
  });
}

/** Whether the turn waits for an approval shown to the client and not yet answered by it. */
function awaitsClient(live: LiveTurn, state: UiTurnState): boolean {
  if (live.ended) return false;
  for (const tool of state.tools.values()) {
    if (tool.resolved || tool.decision) continue;
    if (live.turn?.requests.some((request) => request.id === tool.approvalId)) return true;
  }
  return false;
}

/** The tool's input as the client sees it: redacted, or a bounded excerpt when large. */
function toolInput(live: LiveTurn, approvalId: string, shown: string): unknown {
  const request = live.turn?.requests.find((candidate) => candidate.id === approvalId);
  if (!request) return shown;
  const safe = redact(request.input, live.redaction);
  let text: string | undefined;
  try {
    text = JSON.stringify(safe);
  } catch {
    return shown;
  }
  if (text === undefined || text.length > MAX_TOOL_INPUT_JSON) return excerpt(request.input);
  return JSON.parse(text) as unknown;
}

function findToolRow(rows: readonly ChatTraceRow[], toolCallId: string): ChatTraceToolRow | undefined {
  for (const row of rows) {
    if (row.kind === "tool" && row.toolCallId === toolCallId) return row;
    const found = findToolRow(row.children, toolCallId);
    if (found) return found;
  }
  return undefined;
}

async function openOrCreateSession(chat: Chat, id: string): Promise<Session> {
  try {
    return await chat.openSession(id);
  } catch (error) {
    if (!SessionNotFoundError.isInstance(error)) throw error;
  }
  try {
    return await chat.createSession({ id });
  } catch (error) {
    // Created by a concurrent request in between.
    if (ConflictError.isInstance(error)) return chat.openSession(id);
    throw error;
  }
}

function lastMessage(body: JsonObject): JsonObject {
  const messages = body.messages;
  if (!Array.isArray(messages) || messages.length === 0) {
    throw new HttpError(400, `"messages" must be a non-empty array of UI messages, got ${valueKind(messages)}`);
  }
  const last: unknown = messages[messages.length - 1];
  if (typeof last !== "object" || last === null || Array.isArray(last)) throw new HttpError(400, "The last message must be an object");
  const message = last as JsonObject;
  if (typeof message.role !== "string") throw new HttpError(400, `The last message's "role" must be a string`);
  if (!Array.isArray(message.parts)) throw new HttpError(400, `The last message's "parts" must be an array`);
  return message;
}

function parts(message: JsonObject): JsonObject[] {
  return (message.parts as unknown[]).filter((part): part is JsonObject => typeof part === "object" && part !== null);
}

function textOf(message: JsonObject): string {
  return parts(message)
    .filter((part) => part.type === "text" && typeof part.text === "string")
    .map((part) => part.text as string)
    .join("\n");
}

/** The tool parts the client answered with `addToolApprovalResponse` (state `approval-responded`). */
function approvalResponses(message: JsonObject): ApprovalResponse[] {
  const out: ApprovalResponse[] = [];
  for (const part of parts(message)) {
    const type = part.type;
    if (typeof type !== "string" || !(type === "dynamic-tool" || type.startsWith("tool-"))) continue;
    if (part.state !== "approval-responded") continue;
    const approval = part.approval;
    if (typeof approval !== "object" || approval === null) throw new HttpError(400, `A tool part in state "approval-responded" has no "approval"`);
    const { id, approved, reason } = approval as JsonObject;
    if (typeof id !== "string" || typeof approved !== "boolean") {
      throw new HttpError(400, `A tool approval response needs a string "id" and a boolean "approved"`);
    }
    const response: ApprovalResponse = { approvalId: id, approved };
    if (typeof reason === "string") response.reason = reason.slice(0, 10_000);
    out.push(response);
  }
  return out;
}
