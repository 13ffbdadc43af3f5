import type { TurnCommand } from "../chat/types.js";
import { ASK_USER_TOOL } from "../ask/ask-user.js";
import { readUIMessageStream, UI_MESSAGE_STREAM_HEADERS, type UIMessage, type UIMessageChunk } from "ai";
import type { TextRedactOptions } from "../redaction/redact.js";
import { errorInfo } from "../chat/stream/error-info.js";
import type { Session, Turn, TurnRecord } from "../chat/types.js";
import type { FileRef } from "../stores/types.js";
import { toUIMessages, uiUserMessageId } from "../chat/ui-messages.js";
import { valueKind } from "../errors/value-kind.js";
import { SessionNotFoundError } from "../stores/errors.js";
import { ApprovalNotPendingError, TurnEndedError } from "../chat/errors.js";
import { type JsonObject, readJsonObject } from "./body.js";
import { fileBodyBytes, uiMessageFiles } from "./turn-files.js";
import type { HandlerContext } from "./handler-context.js";
import { HttpError, withInputErrors } from "./http-error.js";
import { inRequestTrace } from "../telemetry/request-trace.js";
import { type RouteContext, Router } from "./router.js";
import type { SessionAccess } from "./session-access.js";
import type { ServedTurn } from "./turn-event-bus.js";
import type { LocalTurn } from "./turn-registry.js";
import { sessionView } from "./session-view.js";
import type { IndexedTurnStreamEvent } from "../chat/stream/turn-stream-event.js";
import { requireBoundedValue, resumeServed } from "./turn-control.js";
import { decisionsIn, UiChunker, type UiTool } from "./ui-chunker.js";
import type { UiDecision } from "./ui-approval-chunks.js";


/** An approval answered by the client with `addToolApprovalResponse`. */
interface ApprovalResponse {
  approvalId: string;
  approved: boolean;
  reason?: string;
  /** The tool part's input as the client sent it back: an approval with an input other than the one shown is an edit. */
  input?: unknown;
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
 *
 * `GET /ui-chat/:id/stream` is `useChat({ resume: true })`'s reconnect; `POST /ui-chat/:id/stop` stops the
 * chat's running turn (the stop button of a page whose reloads must not cancel it).
 */
export function uiChatRoutes(context: HandlerContext): Router {
  return new Router()
    .on("POST", "/ui-chat", (route) => handleUiChat(route, context))
    .on("GET", "/ui-chat/:chatId/stream", (route) => handleUiResume(route, context))
    .on("POST", "/ui-chat/:chatId/stop", (route) => handleUiStop(route, context));
}

async function handleUiChat({ request, access }: RouteContext, context: HandlerContext): Promise<Response> {
  // Extra fields are the transport's own `body` option: accepted and ignored. Its file parts may hold files.
  const body = await readJsonObject(request, { maxBytes: fileBodyBytes(context) });
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

  // The caller's chat, or a new one of theirs: another owner's id is a 404, never written into.
  const session = await access.openOrCreate(chatId);
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
    // `sendMessage({ text, files })`: its file parts are the turn's files (a message may be files alone).
    const files = await uiMessageFiles(parts(last), session, context, request.signal);
    if (input.trim() === "" && files.length === 0) throw new HttpError(400, "The last user message has no text and no files");
    if (input.length > context.maxInputChars) {
      throw new HttpError(413, `The message is ${input.length} characters, over the limit of ${context.maxInputChars}`);
    }
    const message = files.length > 0 ? { text: input.trim() === "" ? "" : input, files } : input;
    const edited = messageId === undefined ? undefined : await editedTurn(session, body);
    start = edited ? () => session.edit(edited.id, message) : () => session.send(message);
  }
  const turn = await withInputErrors(() => inRequestTrace(request, start));
  const live = await context.track(turn);
  return uiStream(live, {
    signal: request.signal,
    messageId: live.id,
    cancelOnDisconnect,
    tools: new Map(),
    redaction: context.redaction,
  });
}

/**
 * `GET /ui-chat/:id/stream`: the AI SDK's resumable-stream route, where `DefaultChatTransport.reconnectToStream`
 * asks on mount when `useChat` has `resume: true`. When the chat has a running turn (in this process or
 * another), its whole message so far and then the rest, as it comes: the stream is a replay (the message it
 * builds replaces the client's copy of it, `GET /sessions/:id/ui-messages`' snapshot), and approval requests
 * decided already show as decided. It ends, as `POST /ui-chat` does, at an approval request still waiting or
 * at the turn's end. No running turn (or no such chat): `204`, which the transport reads as nothing to resume.
 *
 * A page reload aborts `POST /ui-chat`'s request: for the turn to still run then, the handler needs
 * `uiChat: { cancelOnDisconnect: false }` (and the page's stop button `POST /ui-chat/:id/stop`).
 */
async function handleUiResume({ request, params, access }: RouteContext, context: HandlerContext): Promise<Response> {
  const running = await runningTurn(params.chatId!, access, context);
  if (!running) return new Response(null, { status: 204 });
  const { turn, events } = running;
  return uiStream(turn, {
    signal: request.signal,
    messageId: turn.id,
    cancelOnDisconnect: context.uiChat.cancelOnDisconnect ?? true,
    tools: new Map(),
    decided: decisionsIn((events ?? []).map(({ event }) => event)),
    redaction: context.redaction,
  });
}

/**
 * `POST /ui-chat/:id/stop`: cancels the chat's running turn wherever it runs (`{ ok: true, turnId }`), or `204`
 * when none runs. What a stop button calls besides `useChat`'s `stop()`, which only closes the request.
 */
async function handleUiStop({ params, access }: RouteContext, context: HandlerContext): Promise<Response> {
  const running = await runningTurn(params.chatId!, access, context, { strict: true });
  if (!running) return new Response(null, { status: 204 });
  try {
    await running.turn.control({ type: "cancel" });
  } catch (error) {
    // Ended in between: nothing runs now.
    if (TurnEndedError.isInstance(error)) return new Response(null, { status: 204 });
    throw error;
  }
  return context.json(200, { ok: true, turnId: running.turn.id });
}

/**
 * The chat's running turn and its events so far, or `undefined` when none runs. `strict`: a chat that does
 * not exist is a 404, a bus that cannot answer a 503; else both are nothing running.
 */
async function runningTurn(
  chatId: string,
  access: SessionAccess,
  context: HandlerContext,
  options: { strict?: boolean } = {},
): Promise<{ turn: ServedTurn; events: IndexedTurnStreamEvent[] | undefined } | undefined> {
  let session: Session;
  try {
    // Through the caller's access: another owner's chat is one that does not exist.
    session = await access.open(chatId);
  } catch (error) {
    if (!options.strict && SessionNotFoundError.isInstance(error)) return undefined;
    throw error;
  }
  const view = await sessionView(session, context, { bestEffort: !options.strict });
  if (view.runningTurnId === undefined) return undefined;
  const found = view.local ? undefined : context.find(view.runningTurnId, { running: true });
  const turn = view.local ?? (options.strict ? await found : await found?.catch(() => undefined));
  if (!turn) return undefined;
  return { turn, events: await eventsSoFar(view.local ?? turn.id, context) };
}

/**
 * `GET /sessions/:chatId/ui-messages`: the current branch as `UIMessage[]` (see `toUIMessages`); a running turn
 * shows what its stream showed so far: its text, and its tool parts with their approval state, so a
 * reloaded page can answer an approval and continue the same message. The turn may run in this process or
 * in another one (its events read from the bus up to their end at the time of the request, bounded in
 * time); when the bus cannot answer, the page gets the journal's view. A new `useChat` chat asks before its
 * first message, so a chat that does not exist yet (or, through the caller's access, another owner's, which
 * is answered as one that does not exist) has no messages: `[]`, not a 404.
 */
export async function handleUiMessages({ url, params, access }: RouteContext, context: HandlerContext): Promise<Response> {
  let session: Session;
  try {
    session = await access.open(params.chatId!);
  } catch (error) {
    if (SessionNotFoundError.isInstance(error)) return context.json(200, []);
    throw error;
  }
  const view = await sessionView(session, context, { bestEffort: true });
  // Each file is a `file` part pointing at this handler's own route for it, beside this one.
  const files = new URL(url.pathname.replace(/\/ui-messages\/?$/, "/files/"), url.origin);
  // The journal, for the decisions of ended turns (their tool parts).
  const options = { fileUrl: (file: FileRef) => new URL(encodeURIComponent(file.id), files).href, journal: await context.chat.store.read(session.id) };
  const messages = toUIMessages(view.turns, options);
  const runningId = view.runningTurnId;
  if (runningId === undefined || !view.turns.some((turn) => turn.id === runningId)) return context.json(200, messages);
  const events = await eventsSoFar(view.local ?? runningId, context);
  // Ended (or its process gone) while it was read, or its events out of reach: what the journal has now.
  if (events === undefined || events.some(({ event }) => event.type === "turn-end")) return context.json(200, toUIMessages(await session.turns(), { ...options, journal: await context.chat.store.read(session.id) }));
  const snapshot = await liveMessage(runningId, events);
  const index = messages.findIndex((message) => message.id === runningId);
  if (index === -1) messages.push(snapshot);
  else messages[index] = snapshot;
  return context.json(200, messages);
}

/** A running turn's events so far, here or from the bus; `undefined` when they cannot be read now. */
async function eventsSoFar(turn: LocalTurn | string, context: HandlerContext): Promise<IndexedTurnStreamEvent[] | undefined> {
  if (typeof turn !== "string") return turn.readSoFar(0);
  try {
    const found = await context.find(turn, { running: true });
    return await found?.readSoFar?.(0);
  } catch {
    return undefined;
  }
}

/** The assistant message a UI stream of the turn's events would have built so far. */
async function liveMessage(turnId: string, events: readonly IndexedTurnStreamEvent[]): Promise<UIMessage> {
  const chunks: UIMessageChunk[] = [];
  const write = (chunk: UIMessageChunk) => chunks.push(chunk);
  const chunker = new UiChunker(new Map(), write);
  write({ type: "start", messageId: turnId });
  write({ type: "start-step" });
  for (const { index, event } of events) chunker.handle(event, index);
  chunker.endText();
  write({ type: "finish-step" });
  write({ type: "finish", finishReason: "tool-calls" });
  const stream = new ReadableStream<UIMessageChunk>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  let message: UIMessage = { id: turnId, role: "assistant", parts: [] };
  for await (const state of readUIMessageStream({ stream })) message = state;
  return { ...message, metadata: { turnStatus: "running" } };
}

/**
 * The turn a regenerate request answers again: `messageId`'s, else the one at the last user message's place
 * (also when `messageId` names a message of the request the journal does not know by id: a user message the
 * client named itself). A `messageId` neither knows is a 404, never the last turn regenerated in its place.
 */
async function answeredTurn(session: Session, body: JsonObject, messageId: string | undefined): Promise<TurnRecord> {
  const branch = await session.turns();
  if (messageId !== undefined) {
    const named = branch.find((turn) => turn.id === messageId || uiUserMessageId(turn.id) === messageId);
    if (named) return named;
    const sent = (body.messages as unknown[]).some((message) => typeof message === "object" && message !== null && (message as JsonObject).id === messageId);
    if (!sent) throw new HttpError(404, `Chat "${session.id}" has no message "${messageId.slice(0, 128)}" to regenerate`);
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

/**
 * The client answered approvals (`addToolApprovalResponse`) and resent the assistant message: each answer
 * goes to the turn through the same control as every route (`ServedTurn.control`), so it reaches the turn
 * in whichever process runs it, and the same message continues from where the client's copy of it ends.
 */
async function continueAfterApprovals(
  session: Session,
  message: JsonObject,
  context: HandlerContext,
  options: { signal: AbortSignal; cancelOnDisconnect: boolean },
): Promise<Response> {
  const responses = approvalResponses(message);
  const answers = questionAnswers(message);
  if (responses.length === 0 && answers.length === 0) throw new HttpError(400, "The last message is the assistant's but holds no tool approval responses");
  // The assistant message is named after its turn; a client that renamed it still means the session's latest.
  const messageId = typeof message.id === "string" ? message.id : undefined;
  const turn = await approvalTarget(session, messageId, context);
  if (!turn || turn.sessionId !== session.id) throw new HttpError(409, `No turn of chat "${session.id}" is waiting for these approvals`);
  // What each request showed the client: a part sent back with another input was edited before approving.
  const shown = new Map<string, string>();
  for (const { event } of (await turn.readSoFar?.(0)) ?? []) {
    if (event.type === "approval-request") shown.set(event.request.id, JSON.stringify(event.request.inputValue));
  }
  const commands: TurnCommand[] = [
    ...responses.map((response): TurnCommand => {
      const before = shown.get(response.approvalId);
      const edited = response.approved && response.input !== undefined && before !== undefined && JSON.stringify(response.input) !== before;
      return response.approved
        ? { type: "approve", approvalId: response.approvalId, ...(edited && { input: response.input }) }
        : { type: "deny", approvalId: response.approvalId, ...(response.reason !== undefined && { reason: response.reason }) };
    }),
    ...answers.map((answer): TurnCommand => ({ type: "answer", requestId: answer.requestId, value: answer.value })),
  ];
  for (const command of commands) {
    try {
      await turn.control(command);
    } catch (error) {
      // The client resends every answer it holds: one routed by an earlier request, or a turn that ended
      // since, is not this request's failure. What the turn did then is in its events.
      if (!ApprovalNotPendingError.isInstance(error) && !TurnEndedError.isInstance(error)) throw error;
    }
  }
  return uiStream(turn, {
    ...options,
    ...(messageId !== undefined && { messageId }),
    tools: shownTools(message),
    redaction: context.redaction,
  });
}

/**
 * The turn the client's approval answers are for: the message's turn running in any process; else, when it
 * is a durable turn that suspended (or whose process died) and can be resumed, resumed here, as the approve
 * and deny routes do; else the turn as it ended (the answers then change nothing and the client sees its end).
 */
async function approvalTarget(session: Session, messageId: string | undefined, context: HandlerContext): Promise<ServedTurn | undefined> {
  if (messageId !== undefined) {
    // Another session's turn (another user's) is none: answered exactly as an id that does not exist.
    const live = await context.find(messageId, { running: true });
    if (live?.sessionId === session.id) return live;
    const record = (await session.turns()).find((turn) => turn.id === messageId);
    if (record?.resumable) return resumeServed(context, session.id, messageId);
    const ended = await context.find(messageId);
    if (ended?.sessionId === session.id) return ended;
  }
  // A client that renamed the message still means the session's latest.
  const latest = context.registry.latestForSession(session.id);
  return latest && context.find(latest.id);
}

/**
 * Streams the turn's events as UI message chunks, from after the last approval request the client holds
 * (`tools`: none for a new turn), until the turn ends or asks for an approval the client has not seen (the
 * client answers it and resends). It reads the turn through `ServedTurn`, so the turn may run in another
 * process. A client that goes away before the end cancels the turn when `cancelOnDisconnect`.
 */
function uiStream(
  turn: ServedTurn,
  options: {
    signal: AbortSignal;
    messageId?: string;
    cancelOnDisconnect: boolean;
    tools: Map<string, UiTool>;
    /** A replay's decisions taken already, by tool call id (see `UiChunker`). */
    decided?: ReadonlyMap<string, UiDecision>;
    redaction: TextRedactOptions;
  },
): Response {
  const { signal, tools } = options;
  let finished = false;
  // Stops reading (not the turn) when the client goes away, by its request's signal or by canceling the body.
  const stop = new AbortController();
  const disconnected = () => {
    signal.removeEventListener("abort", disconnected);
    stop.abort();
    if (finished || !options.cancelOnDisconnect) return;
    finished = true;
    // Through the turn's control, so it reaches the turn wherever it runs; one that ended is left alone.
    turn.control({ type: "cancel" }).catch(() => {});
  };
  if (signal.aborted) stop.abort();
  else signal.addEventListener("abort", disconnected, { once: true });

  // What `createUIMessageStreamResponse` sends, written in one step per event: each chunk as one SSE
  // `data:` line, `[DONE]` at the end.
  let out = "";
  const write = (chunk: UIMessageChunk) => {
    out += chunk.type === "text-delta" ? textDeltaLine(chunk.id, chunk.delta) : `data: ${JSON.stringify(chunk)}\n\n`;
  };
  const chunker = new UiChunker(tools, write, options.decided);
  const events = turn.read(0, stop.signal)[Symbol.asyncIterator]();
  // The tool calls the client holds: everything up to the last of their requests it was shown already.
  const unseen = new Set(tools.keys());
  let showing = unseen.size === 0;
  let ended = false;

  /** Writes the chunks of the next event (or the stream's end); true when the stream is over. */
  const step = async (): Promise<boolean> => {
    const next = await events.next();
    if (next.done || stop.signal.aborted) return true;
    const { index, event } = next.value;
    if (!showing) {
      // The client has these already. Shown from past the last request it holds, or from a request it
      // never saw, or the end.
      const shown = event.type === "approval-request" ? event.request.toolCallId : event.type === "input-request" ? event.request.id : undefined;
      if (shown !== undefined && unseen.delete(shown)) {
        // One it holds: shown from past the last of them.
        if (unseen.size === 0) {
          showing = true;
          chunker.showDenials();
        }
        return false;
      }
      if (event.type !== "approval-request" && event.type !== "input-request" && event.type !== "turn-end") return false;
      showing = true;
      chunker.showDenials();
    }
    const asks = chunker.asks(event);
    chunker.handle(event, index);
    if (event.type === "turn-end") return true;
    if (asks) {
      chunker.finishReason = "tool-calls";
      return true;
    }
    return false;
  };

  const finish = () => {
    ended = true;
    if (stop.signal.aborted) return;
    finished = true;
    signal.removeEventListener("abort", disconnected);
    chunker.endText();
    write({ type: "finish-step" });
    // A message restored from `ui-messages` says `turnStatus: "running"`: its end says how the turn ended.
    const status = chunker.turnStatus;
    write({ type: "finish", finishReason: chunker.finishReason, ...(status !== undefined && { messageMetadata: { turnStatus: status } }) });
  };

  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start() {
      write(options.messageId !== undefined ? { type: "start", messageId: options.messageId } : { type: "start" });
      write({ type: "start-step" });
      if (showing) chunker.showDenials();
    },
    async pull(controller) {
      try {
        // Events that write nothing (the turn's start, those the client holds) are read on in the same pull.
        while (!ended && out === "") if (await step()) finish();
      } catch (error) {
        ended = true;
        const { name, message } = errorInfo(error, { redaction: options.redaction });
        write({ type: "error", errorText: `${name}: ${message}` });
      }
      if (ended) out += "data: [DONE]\n\n";
      const chunk = out;
      out = "";
      try {
        if (chunk !== "") controller.enqueue(encoder.encode(chunk));
        if (ended) controller.close();
      } catch {
        // Canceled by the client meanwhile.
      }
    },
    cancel() {
      disconnected();
      void events.return?.(undefined);
    },
  });
  return new Response(body, {
    // `x-resumable-stream-id`: the id assistant-ui's `resumable` (and the AI SDK's resumable-stream recipes) keep and
    // resume with; June's is the chat's, whose `GET /ui-chat/:id/stream` rejoins its running turn.
    headers: { ...UI_MESSAGE_STREAM_HEADERS, "x-june-turn-id": turn.id, "x-june-session-id": turn.sessionId, "x-resumable-stream-id": turn.sessionId },
  });
}

/** A `text-delta` chunk's SSE line, as `JSON.stringify` of `{ type, id, delta }` writes it. */
function textDeltaLine(id: string, delta: string): string {
  return `data: {"type":"text-delta","id":${JSON.stringify(id)},"delta":${JSON.stringify(delta)}}\n\n`;
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
    if (part.input !== undefined) {
      requireBoundedValue(part.input, "input");
      response.input = part.input;
    }
    out.push(response);
  }
  return out;
}

/**
 * The client's answers to the turn's questions (`addToolOutput` on an `ask_user` call, whose call id is the
 * question's request id), as the resent message holds them.
 */
function questionAnswers(message: JsonObject): { requestId: string; value: unknown }[] {
  const out: { requestId: string; value: unknown }[] = [];
  for (const part of parts(message)) {
    const isAsk = part.type === `tool-${ASK_USER_TOOL}` || (part.type === "dynamic-tool" && part.toolName === ASK_USER_TOOL);
    if (!isAsk || part.state !== "output-available" || typeof part.toolCallId !== "string") continue;
    if (part.output === undefined) throw new HttpError(400, `The answer to question "${part.toolCallId}" has no "output"`);
    requireBoundedValue(part.output, "output");
    out.push({ requestId: part.toolCallId, value: part.output });
  }
  return out;
}

/**
 * The tool calls the client's assistant message holds, by call id: answered or not, and whether it already
 * has their outcome. This, not server state, is where a continued stream picks up. (Every tool part of a
 * June message is a call that asked for approval; one replayed after it was decided may show no approval.)
 */
function shownTools(message: JsonObject): Map<string, UiTool> {
  const tools = new Map<string, UiTool>();
  for (const part of parts(message)) {
    const type = part.type;
    if (typeof type !== "string" || !(type === "dynamic-tool" || type.startsWith("tool-"))) continue;
    if (typeof part.toolCallId !== "string") continue;
    const tool: UiTool = {
      toolCallId: part.toolCallId,
      resolved: part.state === "output-available" || part.state === "output-error" || part.state === "output-denied",
    };
    const approval = part.approval;
    if (typeof approval === "object" && approval !== null && typeof (approval as JsonObject).approved === "boolean") tool.approved = (approval as JsonObject).approved as boolean;
    tools.set(tool.toolCallId, tool);
  }
  return tools;
}
