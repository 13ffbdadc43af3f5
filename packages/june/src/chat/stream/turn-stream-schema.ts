import type { ChatTraceRow } from "../trace/project-chat-trace.js";
import { TurnStreamEventError } from "./turn-stream-event-error.js";
import type { TurnEndStatus, TurnStreamEvent, TurnStreamEventType } from "./turn-stream-event.js";

/*
 * The schema of `TurnStreamEvent`, written by hand rather than in zod: it runs in Studio's bundle and in
 * every process that reads the Redis bus, and a few checks here cost nothing there, where a schema library
 * would be a dependency of both. Every member of the union and every row kind is checked; fields an event
 * does not know are kept (a newer writer may add some), but a known field of the wrong type is an error.
 */

/** Every `type` a turn-stream event can have, in the order a turn sends them. */
export const TURN_STREAM_EVENT_TYPES: readonly TurnStreamEventType[] = ["turn-start", "text-delta", "reasoning-start", "reasoning-delta", "reasoning-end", "source", "run-update", "approval-request", "policy-decision", "input-request", "turn-end"];

const TYPES: ReadonlySet<string> = new Set(TURN_STREAM_EVENT_TYPES);
const END_STATUSES: ReadonlySet<string> = new Set<TurnEndStatus>(["completed", "failed", "canceled", "suspended", "blocked"]);
const ROW_STATUSES: ReadonlySet<string> = new Set<ChatTraceRow["status"]>(["running", "error", "pending", "done"]);
const APPROVAL_STATES: ReadonlySet<string> = new Set(["pending", "approved", "denied"]);
/** Deeper trace trees than this are not something `projectChatTrace` makes. */
const MAX_ROW_DEPTH = 64;

/** True when `type` names a turn-stream event (a reader skips events of other names: a newer server's). */
export function isTurnStreamEventType(type: unknown): type is TurnStreamEventType {
  return typeof type === "string" && TYPES.has(type);
}

/**
 * Checks that `value` (parsed JSON) is a `TurnStreamEvent` and returns it typed. Throws
 * `TurnStreamEventError` naming the first field that is wrong. Runs in the browser (Studio checks every
 * event it reads with it).
 *
 * @example
 * const event = parseTurnStreamEvent(JSON.parse(message.data));
 * if (event.type === "text-delta") append(event.text);
 */
export function parseTurnStreamEvent(value: unknown): TurnStreamEvent {
  const event = object(value, "");
  const type = event.type;
  if (!isTurnStreamEventType(type)) throw new TurnStreamEventError("type", `must be one of ${TURN_STREAM_EVENT_TYPES.join(", ")}, got ${describe(type)}`);
  switch (type) {
    case "turn-start":
      string(event.turnId, "turnId");
      string(event.sessionId, "sessionId");
      if (event.files !== undefined) {
        if (!Array.isArray(event.files)) throw new TurnStreamEventError("files", `must be an array, got ${describe(event.files)}`);
        event.files.forEach((file: unknown, i: number) => {
          const ref = object(file, `files[${i}]`);
          for (const key of ["id", "mediaType", "sha256"] as const) string(ref[key], `files[${i}].${key}`);
          number(ref.size, `files[${i}].size`);
        });
      }
      break;
    case "text-delta":
      string(event.text, "text");
      break;
    case "reasoning-start":
    case "reasoning-end":
      string(event.id, "id");
      break;
    case "reasoning-delta":
      string(event.id, "id");
      string(event.text, "text");
      break;
    case "source": {
      const source = object(event.source, "source");
      string(source.id, "source.id");
      if (source.sourceType === "url") string(source.url, "source.url");
      else if (source.sourceType === "document") {
        string(source.mediaType, "source.mediaType");
        string(source.title, "source.title");
        optional(source.filename, "source.filename", string);
      } else throw new TurnStreamEventError("source.sourceType", `must be url or document, got ${describe(source.sourceType)}`);
      optional(source.title, "source.title", string);
      break;
    }
    case "run-update":
      rows(event.rows, "rows", 0);
      break;
    case "approval-request": {
      const request = object(event.request, "request");
      for (const key of ["id", "stepId", "toolName", "toolCallId", "input"] as const) string(request[key], `request.${key}`);
      if (!("inputValue" in request)) throw new TurnStreamEventError("request.inputValue", "is missing");
      break;
    }
    case "input-request": {
      const request = object(event.request, "request");
      string(request.id, "request.id");
      string(request.question, "request.question");
      break;
    }
    case "policy-decision": {
      const decision = object(event.decision, "decision");
      for (const key of ["id", "stepId", "toolName", "toolCallId"] as const) string(decision[key], `decision.${key}`);
      if (typeof decision.approved !== "boolean") throw new TurnStreamEventError("decision.approved", `must be a boolean, got ${describe(decision.approved)}`);
      optional(decision.reason, "decision.reason", string);
      break;
    }
    case "turn-end": {
      string(event.turnId, "turnId");
      string(event.sessionId, "sessionId");
      if (typeof event.status !== "string" || !END_STATUSES.has(event.status)) {
        throw new TurnStreamEventError("status", `must be one of ${[...END_STATUSES].join(", ")}, got ${describe(event.status)}`);
      }
      optional(event.text, "text", string);
      optional(event.error, "error", (error, path) => {
        const fields = object(error, path);
        string(fields.name, `${path}.name`);
        string(fields.message, `${path}.message`);
      });
      optional(event.metadata, "metadata", (metadata, path) => {
        const fields = object(metadata, path);
        object(fields.responder, `${path}.responder`);
        optional(fields.finishReason, `${path}.finishReason`, string);
      });
      break;
    }
    default: {
      const unreachable: never = type;
      throw new TurnStreamEventError("type", `is unknown: ${describe(unreachable)}`);
    }
  }
  return event as unknown as TurnStreamEvent;
}

function rows(value: unknown, path: string, depth: number): void {
  if (!Array.isArray(value)) throw new TurnStreamEventError(path, `must be an array of trace rows, got ${describe(value)}`);
  if (depth > MAX_ROW_DEPTH) throw new TurnStreamEventError(path, `nests deeper than ${MAX_ROW_DEPTH} rows`);
  value.forEach((row, i) => traceRow(row, `${path}[${i}]`, depth));
}

function traceRow(value: unknown, path: string, depth: number): void {
  const row = object(value, path);
  string(row.id, `${path}.id`);
  string(row.title, `${path}.title`);
  if (typeof row.status !== "string" || !ROW_STATUSES.has(row.status)) {
    throw new TurnStreamEventError(`${path}.status`, `must be one of ${[...ROW_STATUSES].join(", ")}, got ${describe(row.status)}`);
  }
  optional(row.error, `${path}.error`, string);
  optional(row.canceled, `${path}.canceled`, boolean);
  optional(row.startedAt, `${path}.startedAt`, number);
  optional(row.endedAt, `${path}.endedAt`, number);
  const kind = row.kind as ChatTraceRow["kind"];
  switch (kind) {
    case "step":
      string(row.stepId, `${path}.stepId`);
      optional(row.text, `${path}.text`, string);
      break;
    case "model":
      object(row.model, `${path}.model`);
      optional(row.text, `${path}.text`, string);
      optional(row.reasoning, `${path}.reasoning`, string);
      optional(row.finishReason, `${path}.finishReason`, string);
      optional(row.prompt, `${path}.prompt`, messages);
      optional(row.promptOmitted, `${path}.promptOmitted`, number);
      optional(row.response, `${path}.response`, messages);
      optional(row.attempt, `${path}.attempt`, number);
      optional(row.failedAttempts, `${path}.failedAttempts`, (value, at) => {
        list(value, at).forEach((attempt, i) => {
          const fields = object(attempt, `${at}[${i}]`);
          for (const key of ["attempt", "startedAt", "endedAt"] as const) number(fields[key], `${at}[${i}].${key}`);
          string(fields.error, `${at}[${i}].error`);
        });
      });
      break;
    case "tool":
      string(row.toolName, `${path}.toolName`);
      string(row.toolCallId, `${path}.toolCallId`);
      string(row.input, `${path}.input`);
      optional(row.output, `${path}.output`, string);
      optional(row.approval, `${path}.approval`, (approval, at) => {
        const state = object(approval, at).state;
        if (typeof state !== "string" || !APPROVAL_STATES.has(state)) throw new TurnStreamEventError(`${at}.state`, `must be one of ${[...APPROVAL_STATES].join(", ")}, got ${describe(state)}`);
        const decidedBy = (approval as { decidedBy?: unknown }).decidedBy;
        if (decidedBy !== undefined && decidedBy !== "policy") throw new TurnStreamEventError(`${at}.decidedBy`, `must be "policy" when set, got ${describe(decidedBy)}`);
        const edited = (approval as { edited?: unknown }).edited;
        if (edited !== undefined && edited !== true) throw new TurnStreamEventError(`${at}.edited`, `must be true when set, got ${describe(edited)}`);
      });
      break;
    case "approval":
      string(row.approvalId, `${path}.approvalId`);
      string(row.toolName, `${path}.toolName`);
      string(row.input, `${path}.input`);
      break;
    default: {
      const unknown: never = kind;
      throw new TurnStreamEventError(`${path}.kind`, `must be step, model, tool or approval, got ${describe(unknown)}`);
    }
  }
  rows(row.children, `${path}.children`, depth + 1);
}

const MESSAGE_ROLES: ReadonlySet<string> = new Set(["system", "user", "assistant", "tool"]);

/** A model row's prompt or response: `{ role, text }` excerpts. */
function messages(value: unknown, path: string): void {
  list(value, path).forEach((message, i) => {
    const fields = object(message, `${path}[${i}]`);
    if (typeof fields.role !== "string" || !MESSAGE_ROLES.has(fields.role)) {
      throw new TurnStreamEventError(`${path}[${i}].role`, `must be one of ${[...MESSAGE_ROLES].join(", ")}, got ${describe(fields.role)}`);
    }
    string(fields.text, `${path}[${i}].text`);
  });
}

function list(value: unknown, path: string): unknown[] {
  if (!Array.isArray(value)) throw new TurnStreamEventError(path, `must be an array, got ${describe(value)}`);
  return value;
}

function object(value: unknown, path: string): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new TurnStreamEventError(path, `must be an object, got ${describe(value)}`);
  return value as Record<string, unknown>;
}

function string(value: unknown, path: string): void {
  if (typeof value !== "string") throw new TurnStreamEventError(path, `must be a string, got ${describe(value)}`);
}

function number(value: unknown, path: string): void {
  if (typeof value !== "number" || !Number.isFinite(value)) throw new TurnStreamEventError(path, `must be a number, got ${describe(value)}`);
}

function boolean(value: unknown, path: string): void {
  if (typeof value !== "boolean") throw new TurnStreamEventError(path, `must be true or false, got ${describe(value)}`);
}

function optional(value: unknown, path: string, check: (value: unknown, path: string) => void): void {
  if (value !== undefined) check(value, path);
}

/** What a wrong value was, in a few words (never the value itself: it may be long, or a credential). */
function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string") return value.length <= 40 && /^[\w -]*$/.test(value) ? JSON.stringify(value) : `a string of ${value.length} characters`;
  return typeof value === "object" ? "an object" : typeof value === "number" || typeof value === "boolean" ? String(value) : typeof value;
}
