import { redactText, type TextRedactOptions } from "../redaction/redact.js";
import { JuneError } from "../errors/june-error.js";
import { JournalCorruptError } from "../stores/errors.js";

/** A request the handler refuses, with the HTTP status to answer it with. */
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

/** Statuses for the June errors a chat throws, by their stable `name`. */
const STATUS_BY_NAME: Readonly<Record<string, number>> = {
  HttpError: 400,
  InvalidSessionIdError: 400,
  SessionNotFoundError: 404,
  SessionBusyError: 409,
  ConflictError: 409,
  TurnEndedError: 409,
  TurnNotFoundError: 404,
  TurnNotCompletedError: 409,
  SteerNotSupportedError: 422,
  InputTooLargeError: 413,
  TurnNotResumableError: 409,
  CheckpointMismatchError: 409,
  CheckpointUnreadableError: 409,
};

const JSON_HEADERS = { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" } as const;

/** A JSON response. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { ...JSON_HEADERS, ...headers } });
}

/**
 * Maps anything thrown while serving a request to a JSON `{ error }` response: `HttpError`s keep their
 * status, June errors from the chat get theirs by name (`SessionBusyError` 409, `SessionNotFoundError` 404,
 * `InvalidSessionIdError` 400, ...), and anything else is a 500 whose message is never sent (no internals,
 * no stack trace).
 */
export function errorResponse(error: unknown, redaction: TextRedactOptions = {}): Response {
  if (HttpError.isInstance(error)) return json(error.status, { error: redactText(error.message, redaction) }, error.headers);
  if (JournalCorruptError.isInstance(error)) return corruptJournalResponse(error, redaction);
  if (JuneError.isInstance(error)) {
    const status = STATUS_BY_NAME[error.name];
    if (status !== undefined) return json(status, { error: redactText(error.message, redaction), name: error.name });
  }
  return json(500, { error: "Internal server error" });
}

/**
 * A session whose journal cannot be read: the server's stored data, not the request, is at fault (500), and
 * the answer says so, naming the session, the line and what is wrong there, but not the file's path.
 */
function corruptJournalResponse(error: JournalCorruptError, redaction: TextRedactOptions): Response {
  const { sessionId, line, detail } = error;
  return json(500, {
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
