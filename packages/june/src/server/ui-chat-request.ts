/**
 * What a `POST /ui-chat` request's body holds, read and checked: its last message, that message's text, the
 * approval responses and question answers a resent assistant message carries, and the tool calls it shows.
 */
import { ASK_USER_TOOL } from "../ask/ask-user.js";
import { valueKind } from "../errors/value-kind.js";
import type { JsonObject } from "./body.js";
import { HttpError } from "./http-error.js";
import { requireBoundedValue } from "./turn-control.js";
import type { UiTool } from "./ui-chunker.js";

/** An approval answered by the client with `addToolApprovalResponse`. */
export interface ApprovalResponse {
  approvalId: string;
  approved: boolean;
  reason?: string;
  /** The tool part's input as the client sent it back: an approval with an input other than the one shown is an edit. */
  input?: unknown;
}

export function lastMessage(body: JsonObject): JsonObject {
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

export function parts(message: JsonObject): JsonObject[] {
  return (message.parts as unknown[]).filter((part): part is JsonObject => typeof part === "object" && part !== null);
}

export function textOf(message: JsonObject): string {
  return parts(message)
    .filter((part) => part.type === "text" && typeof part.text === "string")
    .map((part) => part.text as string)
    .join("\n");
}

/** The tool parts the client answered with `addToolApprovalResponse` (state `approval-responded`). */
export function approvalResponses(message: JsonObject): ApprovalResponse[] {
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
export function questionAnswers(message: JsonObject): { requestId: string; value: unknown }[] {
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
export function shownTools(message: JsonObject): Map<string, UiTool> {
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

export function userMessageCount(body: JsonObject): number {
  return (body.messages as unknown[]).filter((message) => typeof message === "object" && message !== null && (message as JsonObject).role === "user").length;
}
