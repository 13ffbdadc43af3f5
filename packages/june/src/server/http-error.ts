import { redactText, type TextRedactOptions } from "../redaction/redact.js";
import { JuneError } from "../errors/june-error.js";
import { GuardrailTrippedError } from "../errors/guardrail-tripped-error.js";
import {
  ApprovalNotPendingError,
  InputTooLargeError,
  SteerNotSupportedError,
  TurnEndedError,
  TurnNotCompletedError,
  TurnNotFoundError,
  TurnNotResumableError,
} from "../chat/errors.js";
import { FileRejectedError } from "../chat/files/errors.js";
import { ApprovalEditRefusedError, CheckpointMismatchError, ToolInputInvalidError } from "../runtime/errors.js";
import { NoQueueError, QueueUnavailableError, ScheduleInvalidError } from "../chat/queue/errors.js";
import {
  CheckpointUnreadableError,
  ConflictError,
  InvalidSessionIdError,
  JournalCorruptError,
  SessionBusyError,
  SessionNotFoundError,
} from "../stores/errors.js";

/**
 * A request the handler refuses, with the HTTP status to answer it with: what a route throws for bad input,
 * and what the errors the chat throws become at the edge (see `errorResponse`). Hono's `HTTPException`.
 */
export class HttpError extends JuneError {
  static override readonly marker: symbol = Symbol.for("june.HttpError");
  override readonly name = "HttpError";
  readonly status: number;
  readonly headers?: Record<string, string>;

  constructor(status: number, message: string, options: { headers?: Record<string, string>; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.status = status;
    if (options.headers) this.headers = options.headers;
  }
}

/** A June error class, as the status table names it (`isInstance` is safe across bundles). */
interface ErrorClass {
  readonly name: string;
  isInstance(error: unknown): boolean;
}

/**
 * The one place a June error becomes an HTTP status: what a chat, its store and its turns' controls throw.
 * The first class that matches wins. Anything not here (and not an `HttpError`) is a 500.
 */
const STATUSES: readonly (readonly [ErrorClass, number])[] = [
  [InvalidSessionIdError, 400],
  [ToolInputInvalidError, 400],
  [ApprovalEditRefusedError, 400],
  [SessionNotFoundError, 404],
  [TurnNotFoundError, 404],
  [SessionBusyError, 409],
  [ConflictError, 409],
  [ApprovalNotPendingError, 409],
  [TurnEndedError, 409],
  [TurnNotCompletedError, 409],
  [TurnNotResumableError, 409],
  [CheckpointMismatchError, 409],
  [CheckpointUnreadableError, 409],
  [InputTooLargeError, 413],
  [SteerNotSupportedError, 422],
  // A steer or an answer the chat's guardrails refuse (the question stays pending).
  [GuardrailTrippedError, 422],
  [ScheduleInvalidError, 400],
  [NoQueueError, 501],
  [QueueUnavailableError, 503],
];

/** The status a thrown error answers with: an `HttpError`'s own, a June error's from the table, else 500. */
export function statusOf(error: unknown): number {
  if (HttpError.isInstance(error)) return error.status;
  // Its status depends on why the file was refused: 413, 415 or 400.
  if (FileRejectedError.isInstance(error)) return error.status;
  for (const [type, status] of STATUSES) if (type.isInstance(error)) return status;
  return 500;
}

const JSON_HEADERS = { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" } as const;

/**
 * A JSON response of a body that is safe as it is. Routes answer through their context's `json`, which
 * redacts first; this is for the answers built here.
 */
export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { ...JSON_HEADERS, ...headers } });
}

/**
 * The handler's `onError`: maps anything thrown while serving a request to a JSON `{ error }` response.
 * `HttpError`s keep their status, June errors get theirs from the one table above (`SessionBusyError` 409,
 * `ApprovalNotPendingError` 409, `SessionNotFoundError` 404, ...) with their `name`, and anything else is a
 * 500 whose message is never sent (no internals, no stack trace).
 */
export function errorResponse(error: unknown, redaction: TextRedactOptions = {}): Response {
  if (HttpError.isInstance(error)) return jsonResponse(error.status, { error: redactText(error.message, redaction) }, error.headers);
  if (JournalCorruptError.isInstance(error)) return corruptJournalResponse(error, redaction);
  const status = statusOf(error);
  if (status === 500 || !JuneError.isInstance(error)) return jsonResponse(500, { error: "Internal server error" });
  // A busy session says what keeps it busy, never who holds its lease (a process id, a host name).
  const message = SessionBusyError.isInstance(error) ? (error as SessionBusyError).publicMessage : error.message;
  return jsonResponse(status, { error: redactText(message, redaction), name: error.name });
}

/**
 * A session whose journal cannot be read: the server's stored data, not the request, is at fault (500), and
 * the answer says so, naming the session, the line and what is wrong there, but not the file's path.
 */
function corruptJournalResponse(error: JournalCorruptError, redaction: TextRedactOptions): Response {
  const { sessionId, line, detail } = error;
  return jsonResponse(500, {
    error: redactText(`The journal of session "${sessionId}" is corrupt at line ${line}: ${detail}`, redaction),
    name: error.name,
    sessionId,
    line,
  });
}

/**
 * Runs a chat call that validates the client's input (`send`, `steer`, `feedback`): the `TypeError`s and
 * `RangeError`s it throws for bad input become 400s.
 */
export async function withInputErrors<T>(call: () => T | Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof TypeError || error instanceof RangeError) throw new HttpError(400, error.message, { cause: error });
    throw error;
  }
}
