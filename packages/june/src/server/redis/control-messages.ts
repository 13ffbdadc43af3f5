import type { TurnControl, TurnControlReply } from "../turn-event-bus.js";

/** A control request, published on the owner's `control:<processId>` channel. */
export interface ControlRequest {
  requestId: string;
  /** The requesting process: the reply goes to its `reply:<processId>` channel. */
  replyTo: string;
  turnId: string;
  command: TurnControl;
}

/** The owner's answer, published on the requester's `reply:<processId>` channel. */
export interface ControlResponse {
  requestId: string;
  reply: TurnControlReply;
}

/** A control request from a channel message, or `undefined` when the message is not one. */
export function parseControlRequest(message: string): ControlRequest | undefined {
  const value = parseObject(message);
  if (!value) return undefined;
  const { requestId, replyTo, turnId } = value;
  if (typeof requestId !== "string" || typeof replyTo !== "string" || typeof turnId !== "string") return undefined;
  const command = parseCommand(value.command);
  return command ? { requestId, replyTo, turnId, command } : undefined;
}

/** A control response from a channel message, or `undefined` when the message is not one. */
export function parseControlResponse(message: string): ControlResponse | undefined {
  const value = parseObject(message);
  if (!value || typeof value.requestId !== "string") return undefined;
  const reply = value.reply as Partial<TurnControlReply> | undefined;
  if (typeof reply !== "object" || reply === null) return undefined;
  const { status, body } = reply;
  if (typeof status !== "number" || !Number.isInteger(status) || status < 200 || status > 599) return undefined;
  if (typeof body !== "object" || body === null || Array.isArray(body)) return undefined;
  return { requestId: value.requestId, reply: { status, body } };
}

function parseCommand(value: unknown): TurnControl | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const command = value as Record<string, unknown>;
  switch (command.type) {
    case "approve":
      if (typeof command.approvalId !== "string") return undefined;
      if (command.remember !== undefined && command.remember !== "session") return undefined;
      return { type: "approve", approvalId: command.approvalId, ...(command.remember === "session" && { remember: "session" as const }) };
    case "deny":
      if (typeof command.approvalId !== "string") return undefined;
      if (command.reason !== undefined && typeof command.reason !== "string") return undefined;
      return { type: "deny", approvalId: command.approvalId, ...(typeof command.reason === "string" && { reason: command.reason }) };
    case "cancel":
      return { type: "cancel" };
    case "steer":
      return typeof command.input === "string" ? { type: "steer", input: command.input } : undefined;
    default:
      return undefined;
  }
}

function parseObject(message: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(message);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
