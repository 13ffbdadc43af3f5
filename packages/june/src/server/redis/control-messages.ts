import { jsonValueIssue } from "../../runtime/edited-input.js";
import { ApprovalNotPendingError, InputTooLargeError, SteerNotSupportedError, TurnEndedError, type TurnControlName } from "../../chat/errors.js";
import type { TurnCommand } from "../../chat/types.js";
import { JuneError } from "../../errors/june-error.js";
import { HttpError, statusOf } from "../http-error.js";

/** A control request, published on the owner's `control:<processId>` channel. */
export interface ControlRequest {
  requestId: string;
  /** The requesting process: the reply goes to its `reply:<processId>` channel. */
  replyTo: string;
  turnId: string;
  command: TurnCommand;
}

/**
 * Why a control failed, as it crosses to the requesting process: the error's `name`, `message` and fields,
 * and the status the owner's table gave it (for an error the requester cannot rebuild as its own class).
 */
export interface ControlErrorJson {
  name: string;
  message: string;
  status: number;
  turnId?: string;
  approvalId?: string;
  control?: TurnControlName;
  length?: number;
  maxInputChars?: number;
}

/** What applying a control came to: done, or the typed error the turn threw. */
export type ControlOutcome = { ok: true } | { error: ControlErrorJson };

/** The owner's answer, published on the requester's `reply:<processId>` channel. */
export interface ControlResponse {
  requestId: string;
  outcome: ControlOutcome;
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
  const outcome = value.outcome as Record<string, unknown> | undefined;
  if (typeof outcome !== "object" || outcome === null) return undefined;
  if (outcome.ok === true) return { requestId: value.requestId, outcome: { ok: true } };
  const error = outcome.error as Partial<ControlErrorJson> | undefined;
  if (typeof error !== "object" || error === null) return undefined;
  const { name, status } = error;
  if (typeof name !== "string" || typeof error.message !== "string") return undefined;
  if (typeof status !== "number" || !Number.isInteger(status) || status < 400 || status > 599) return undefined;
  return { requestId: value.requestId, outcome: { error: error as ControlErrorJson } };
}

/** The owner's side: an error a control threw, as it crosses (a 500's message stays here). */
export function controlErrorJson(error: unknown): ControlErrorJson {
  if (error instanceof TypeError || error instanceof RangeError) return { name: error.name, message: error.message, status: 400 };
  const status = statusOf(error);
  if (status === 500 || !JuneError.isInstance(error)) return { name: "Error", message: "Internal server error", status: 500 };
  const fields = error as Partial<Record<"turnId" | "approvalId" | "control" | "length" | "maxInputChars", unknown>>;
  return {
    name: error.name,
    message: error.message,
    status,
    ...(typeof fields.turnId === "string" && { turnId: fields.turnId }),
    ...(typeof fields.approvalId === "string" && { approvalId: fields.approvalId }),
    ...(typeof fields.control === "string" && { control: fields.control as TurnControlName }),
    ...(typeof fields.length === "number" && { length: fields.length }),
    ...(typeof fields.maxInputChars === "number" && { maxInputChars: fields.maxInputChars }),
  };
}

/**
 * The requester's side: the same typed error the turn threw in its own process (`ApprovalNotPendingError`,
 * `TurnEndedError`, ...), so callers here tell them apart with `isInstance` as for a turn of their own;
 * anything else keeps the owner's status as an `HttpError`.
 */
export function controlErrorOf(json: ControlErrorJson): Error {
  const turnId = json.turnId ?? "";
  const rebuilt = ((): Error => {
    switch (json.name) {
      case "ApprovalNotPendingError":
        return new ApprovalNotPendingError({ turnId, approvalId: json.approvalId ?? "" });
      case "TurnEndedError":
        return new TurnEndedError(turnId, undefined, {
          ...(json.control !== undefined && { control: json.control }),
          ...(json.approvalId !== undefined && { approvalId: json.approvalId }),
        });
      case "SteerNotSupportedError":
        return new SteerNotSupportedError(turnId);
      case "InputTooLargeError":
        return new InputTooLargeError(json.length ?? 0, json.maxInputChars ?? 0);
      case "TypeError":
        return new TypeError(json.message);
      case "RangeError":
        return new RangeError(json.message);
      default:
        return new HttpError(json.status, json.message);
    }
  })();
  // The owner's words: the same fields may have been said otherwise there (a responder's own detail).
  rebuilt.message = json.message;
  return rebuilt;
}

function parseCommand(value: unknown): TurnCommand | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const command = value as Record<string, unknown>;
  switch (command.type) {
    case "approve":
      if (typeof command.approvalId !== "string") return undefined;
      if (command.remember !== undefined && command.remember !== "session") return undefined;
      // An edit crosses with its input: dropped, the owner would run the model's input the person changed.
      if (command.input !== undefined && jsonValueIssue(command.input, "input") !== undefined) return undefined;
      return {
        type: "approve",
        approvalId: command.approvalId,
        ...(command.remember === "session" && { remember: "session" as const }),
        ...(command.input !== undefined && { input: command.input }),
      };
    case "answer":
      if (typeof command.requestId !== "string" || command.value === undefined || jsonValueIssue(command.value, "value") !== undefined) return undefined;
      return { type: "answer", requestId: command.requestId, value: command.value };
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
