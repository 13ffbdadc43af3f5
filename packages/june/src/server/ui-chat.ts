import { createUIMessageStream, createUIMessageStreamResponse, type FinishReason, type UIMessageChunk } from "ai";
import type { ChatTraceRow, ChatTraceToolRow } from "../chat/project-chat-trace.js";
import { redact } from "../chat/redact.js";
import { summarize } from "../chat/trace/summarize.js";
import type { Chat, Session } from "../chat/types.js";
import { JuneError } from "../errors/june-error.js";
import { describe, type JsonObject, readJsonObject } from "./body.js";
import type { HandlerContext } from "./create-chat-handler.js";
import { HttpError, withInputErrors } from "./http-error.js";
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

/** A redacted tool input larger than this, as JSON, goes out as a bounded summary instead. */
const MAX_TOOL_INPUT_JSON = 16_000;

const FINISH_REASONS: ReadonlySet<string> = new Set(["stop", "length", "content-filter", "tool-calls", "error", "other"]);

/**
 * `POST /ui-chat`: the AI SDK UI message stream protocol, so `useChat` and `DefaultChatTransport` talk to a
 * June chat unchanged. The request body is the transport's `{ id, messages, trigger, messageId }`; `id`
 * names the June session (created when new), the last user message's text is the turn's input (the
 * session's journal, not the client's copy, is the history the responder sees). Tool approvals are tool
 * parts in state `approval-requested`; the response ends there, and when the client resends with its
 * `addToolApprovalResponse` answers, they go to the still-running turn's `approve`/`deny` and the same
 * assistant message continues.
 */
export async function handleUiChat({ request }: RouteContext, context: HandlerContext): Promise<Response> {
  // Extra fields are the transport's own `body` option: accepted and ignored.
  const body = await readJsonObject(request, { maxBytes: context.maxBodyBytes });
  const chatId = body.id;
  if (typeof chatId !== "string" || chatId === "") throw new HttpError(400, `"id" must be the chat's id (a string), got ${describe(chatId)}`);
  const trigger = body.trigger ?? "submit-message";
  if (trigger === "regenerate-message") throw new HttpError(400, `trigger "regenerate-message" is not supported: send a new message instead`);
  if (trigger !== "submit-message") throw new HttpError(400, `"trigger" must be "submit-message", got ${JSON.stringify(trigger)}`);
  const last = lastMessage(body);

  const session = await openOrCreateSession(context.chat, chatId);
  if (last.role === "assistant") return continueAfterApprovals(session, last, context, request.signal);
  if (last.role !== "user") throw new HttpError(400, `The last message must be the user's, or the assistant's with tool approval responses`);

  const input = textOf(last);
  if (input.trim() === "") throw new HttpError(400, "The last user message has no text");
  if (input.length > context.maxInputChars) {
    throw new HttpError(413, `The message is ${input.length} characters, over the limit of ${context.maxInputChars}`);
  }
  const turn = await withInputErrors(() => session.send(input));
  const live = await context.track(turn);
  const state: UiTurnState = { cursor: 0, tools: new Map() };
  uiStates.set(live, state);
  return uiStream(live, state, { signal: request.signal });
}

async function continueAfterApprovals(
  session: Session,
  message: JsonObject,
  context: HandlerContext,
  signal: AbortSignal,
): Promise<Response> {
  const responses = approvalResponses(message);
  if (responses.length === 0) throw new HttpError(400, "The last message is the assistant's but holds no tool approval responses");
  const live = context.registry.latestForSession(session.id);
  const state = live && uiStates.get(live);
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
  return uiStream(live, state, { signal, messageId });
}

/**
 * Streams the turn's events from where the last UI stream of this turn stopped, as UI message chunks,
 * until the turn ends or waits for an approval only the client can give.
 */
function uiStream(live: LiveTurn, state: UiTurnState, options: { signal: AbortSignal; messageId?: string }): Response {
  const stream = createUIMessageStream({
    onError: (error) => {
      const { name, message } = errorSummary(error);
      return `${name}: ${message}`;
    },
    execute: async ({ writer }) => {
      const write = (chunk: UIMessageChunk) => writer.write(chunk);
      let textId: string | undefined;
      let textCount = 0;
      const endText = () => {
        if (textId === undefined) return;
        write({ type: "text-end", id: textId });
        textId = undefined;
      };

      write(options.messageId !== undefined ? { type: "start", messageId: options.messageId } : { type: "start" });
      write({ type: "start-step" });
      // Denials the client just sent are settled already: show them at once.
      for (const tool of state.tools.values()) {
        if (!tool.resolved && tool.decision && !tool.decision.approved) {
          write({ type: "tool-output-denied", toolCallId: tool.toolCallId });
          tool.resolved = true;
        }
      }

      let finishReason: FinishReason = "stop";
      for (;;) {
        if (options.signal.aborted) return;
        if (state.cursor < live.length) {
          const event = live.events[state.cursor];
          state.cursor++;
          handle(event);
          if (event.type === "turn-end") break;
          continue;
        }
        if (awaitsClient(live, state)) {
          finishReason = "tool-calls";
          break;
        }
        await live.waitFor(state.cursor, options.signal);
      }
      endText();
      write({ type: "finish-step" });
      write({ type: "finish", finishReason });

      function handle(event: TurnStreamEvent): void {
        switch (event.type) {
          case "turn-start":
            return;
          case "text-delta":
            if (event.text === "") return;
            if (textId === undefined) {
              textId = `${live.id}-text-${state.cursor}-${textCount++}`;
              write({ type: "text-start", id: textId });
            }
            write({ type: "text-delta", id: textId, delta: event.text });
            return;
          case "run-update":
            resolveTools(event.rows);
            return;
          case "approval-request": {
            const { request } = event;
            if (state.tools.has(request.toolCallId)) return;
            endText();
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
            endText();
            settleTools(event.status);
            if (event.status === "failed") {
              const error = event.error ?? { name: "Error", message: "The turn failed" };
              write({ type: "error", errorText: `${error.name}: ${error.message}` });
              finishReason = "error";
            } else if (event.status === "canceled") {
              write({ type: "abort", reason: "The turn was canceled" });
              finishReason = "other";
            } else {
              const reason = event.metadata?.finishReason;
              finishReason = reason !== undefined && FINISH_REASONS.has(reason) ? (reason as FinishReason) : "stop";
            }
            return;
          default: {
            const unreachable: never = event;
            void unreachable;
          }
        }
      }

      /** Tool calls the client was shown, settled as the trace shows them. */
      function resolveTools(rows: readonly ChatTraceRow[]): void {
        for (const tool of state.tools.values()) {
          if (tool.resolved) continue;
          const row = findToolRow(rows, tool.toolCallId);
          if (!row) continue;
          if (row.approval?.state === "denied") {
            write({ type: "tool-output-denied", toolCallId: tool.toolCallId });
          } else if (row.status === "done") {
            write({ type: "tool-output-available", toolCallId: tool.toolCallId, output: row.output ?? null, dynamic: true });
          } else if (row.status === "error") {
            write({ type: "tool-output-error", toolCallId: tool.toolCallId, errorText: row.error ?? `${row.toolName} failed`, dynamic: true });
          } else {
            continue;
          }
          tool.resolved = true;
        }
      }

      /** At the turn's end every tool call shown gets an outcome, so the client never resends for it. */
      function settleTools(status: "completed" | "failed" | "canceled"): void {
        for (const tool of state.tools.values()) {
          if (tool.resolved) continue;
          tool.resolved = true;
          if (tool.decision && !tool.decision.approved) {
            write({ type: "tool-output-denied", toolCallId: tool.toolCallId });
          } else if (status === "completed" && tool.decision) {
            write({ type: "tool-output-available", toolCallId: tool.toolCallId, output: null, dynamic: true });
          } else {
            write({ type: "tool-output-error", toolCallId: tool.toolCallId, errorText: `The turn ${status === "completed" ? "ended" : status} before the tool ran`, dynamic: true });
          }
        }
      }
    },
  });
  return createUIMessageStreamResponse({
    stream,
    headers: { "x-june-turn-id": live.id, "x-june-session-id": live.sessionId },
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

/** The tool's input as the client sees it: redacted, or a bounded summary when large. */
function toolInput(live: LiveTurn, approvalId: string, summary: string): unknown {
  const request = live.turn?.requests.find((candidate) => candidate.id === approvalId);
  if (!request) return summary;
  const safe = redact(request.input);
  let text: string | undefined;
  try {
    text = JSON.stringify(safe);
  } catch {
    return summary;
  }
  if (text === undefined || text.length > MAX_TOOL_INPUT_JSON) return summarize(request.input);
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
    if (!JuneError.hasName(error, "SessionNotFoundError")) throw error;
  }
  try {
    return await chat.createSession({ id });
  } catch (error) {
    // Created by a concurrent request in between.
    if (JuneError.hasName(error, "ConflictError")) return chat.openSession(id);
    throw error;
  }
}

function lastMessage(body: JsonObject): JsonObject {
  const messages = body.messages;
  if (!Array.isArray(messages) || messages.length === 0) {
    throw new HttpError(400, `"messages" must be a non-empty array of UI messages, got ${describe(messages)}`);
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
