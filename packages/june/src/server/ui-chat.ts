import type { Session, Turn, TurnRecord } from "../chat/types.js";
import { uiUserMessageId } from "../chat/ui-messages.js";
import { valueKind } from "../errors/value-kind.js";
import { TurnEndedError } from "../chat/errors.js";
import { type JsonObject, readJsonObject } from "./body.js";
import { fileBodyBytes, uiMessageFiles } from "./turn-files.js";
import type { HandlerContext } from "./handler-context.js";
import { HttpError, withInputErrors } from "./http-error.js";
import { inRequestTrace } from "../telemetry/request-trace.js";
import { type RouteContext, Router } from "./router.js";
import { decisionsIn } from "./ui-chunker.js";
import { continueAfterApprovals } from "./ui-chat-approvals.js";
import { lastMessage, parts, textOf, userMessageCount } from "./ui-chat-request.js";
import { runningTurn } from "./ui-running-turn.js";
import { uiStream } from "./ui-stream.js";
import { sendsTrace } from "./ui-trace-part.js";
import { uiSend } from "./ui-asides.js";

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
    trace: sendsTrace(context),
    send: uiSend(context.uiChat),
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
    trace: sendsTrace(context),
    send: uiSend(context.uiChat),
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
