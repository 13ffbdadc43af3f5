import { JuneError } from "../errors/june-error.js";

/** No session with that id. */
export class SessionNotFoundError extends JuneError {
  static override readonly marker: symbol = Symbol.for("june.SessionNotFoundError");
  override readonly name = "SessionNotFoundError";
  readonly sessionId: string;
  constructor(sessionId: string) {
    super(`No session "${sessionId}"`);
    this.sessionId = sessionId;
  }
}

/**
 * A turn already runs in the session, in this process or another. `detail` says what keeps it busy in
 * words anyone may read (the turn that runs or waits); `holder` who holds its lease (a process id, a host),
 * which the message keeps for logs but an HTTP answer never shows (see `publicMessage`).
 */
export class SessionBusyError extends JuneError {
  static override readonly marker: symbol = Symbol.for("june.SessionBusyError");
  override readonly name = "SessionBusyError";
  readonly sessionId: string;
  readonly detail?: string;
  /** Who holds the session's lease (`its lease is held by process 22590 on vm`): for logs only. */
  readonly holder?: string;
  constructor(sessionId: string, detail?: string, options: { holder?: string } = {}) {
    const said = [detail, options.holder].filter((part) => part !== undefined && part !== "").join("; ");
    super(`Session "${sessionId}" is busy: a turn is already running${said ? ` (${said})` : ""}`);
    this.sessionId = sessionId;
    if (detail !== undefined) this.detail = detail;
    if (options.holder !== undefined) this.holder = options.holder;
  }

  /** The message without `holder`: what a client of another process may be told. */
  get publicMessage(): string {
    return `Session "${this.sessionId}" is busy: a turn is already running${this.detail ? ` (${this.detail})` : ""}`;
  }
}

/** An append whose `expectedSeq` is behind the journal, or a session id that exists already. */
export class ConflictError extends JuneError {
  static override readonly marker: symbol = Symbol.for("june.ConflictError");
  override readonly name = "ConflictError";
  readonly sessionId: string;
  constructor(sessionId: string, message: string) {
    super(message);
    this.sessionId = sessionId;
  }
}

/** A session id that is not letters, digits, `-` and `_` (at most 128). */
export class InvalidSessionIdError extends JuneError {
  static override readonly marker: symbol = Symbol.for("june.InvalidSessionIdError");
  override readonly name = "InvalidSessionIdError";
  readonly sessionId: unknown;
  constructor(sessionId: unknown) {
    super(
      `Invalid session id ${JSON.stringify(String(sessionId)).slice(0, 140)}: use 1 to 128 letters, digits, "-" or "_"`,
    );
    this.sessionId = sessionId;
  }
}

/**
 * A journal that cannot be read (not a torn last line, which is skipped): a line that is not a well-formed
 * entry, a seq out of order, or an entry naming a turn that never started. `line` is the 1-based line of a
 * file journal, which is also the entry's `seq` (0 when no line can be named); `location` the file (or
 * database) when the store knows it. `detail` says what is wrong without the location, for answers that
 * must not show a path (HTTP).
 */
export class JournalCorruptError extends JuneError {
  static override readonly marker: symbol = Symbol.for("june.JournalCorruptError");
  override readonly name = "JournalCorruptError";
  readonly sessionId: string;
  readonly line: number;
  readonly detail: string;
  readonly location?: string;
  constructor(sessionId: string, line: number, detail: string, options?: { location?: string; cause?: unknown }) {
    const where = options?.location === undefined ? "" : ` of ${options.location}`;
    super(`Journal of session "${sessionId}" is corrupt at line ${line}${where}: ${detail}`, options);
    this.sessionId = sessionId;
    this.line = line;
    this.detail = detail;
    if (options?.location !== undefined) this.location = options.location;
  }
}

const SESSION_ID = /^[A-Za-z0-9_-]{1,128}$/;
/** The last id found valid (a session's calls repeat it: acquire, appends, release). */
let lastValid: string | undefined;

/** True when `id` is a safe session id: 1 to 128 letters, digits, `-` or `_`. */
export function isSessionId(id: unknown): id is string {
  if (lastValid !== undefined && id === lastValid) return true;
  if (typeof id !== "string" || !SESSION_ID.test(id)) return false;
  lastValid = id;
  return true;
}

/** Throws `InvalidSessionIdError` unless `id` is a safe session id. */
export function assertSessionId(id: unknown): asserts id is string {
  if (!isSessionId(id)) throw new InvalidSessionIdError(id);
}

/** A database store whose driver package is not installed (or not built): the message says what to install. */
export class StoreDriverMissingError extends JuneError {
  static override readonly marker: symbol = Symbol.for("june.StoreDriverMissingError");
  override readonly name = "StoreDriverMissingError";
  /** The npm package the store needs, e.g. `better-sqlite3`. */
  readonly packageName: string;
  constructor(packageName: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.packageName = packageName;
  }
}

/** A call on a store after its `close()`. */
export class StoreClosedError extends JuneError {
  static override readonly marker: symbol = Symbol.for("june.StoreClosedError");
  override readonly name = "StoreClosedError";
  /** The store's factory, e.g. `sqliteStore`. */
  readonly store: string;
  constructor(store: string) {
    super(`${store}: the store is closed`);
    this.store = store;
  }
}

/** A stored checkpoint that cannot be read (damaged, not what was written, or not decryptable); names the turn. */
export class CheckpointUnreadableError extends JuneError {
  static override readonly marker: symbol = Symbol.for("june.CheckpointUnreadableError");
  override readonly name = "CheckpointUnreadableError";
  readonly sessionId: string;
  readonly turnId: string;
  /** Why, e.g. "its file is not valid JSON (damaged)" (what a turn's `checkpointUnreadable` says). */
  readonly detail: string;
  constructor(sessionId: string, turnId: string, detail: string, options?: { cause?: unknown }) {
    super(
      `The checkpoint of turn "${turnId}" in session "${sessionId}" cannot be read: ${detail}; the turn cannot resume, but it can be canceled`,
      options,
    );
    this.sessionId = sessionId;
    this.turnId = turnId;
    this.detail = detail;
  }
}

/**
 * A store whose database cannot be used as it is: SQLite that cannot turn on WAL, or a schema written by a
 * newer June. The message says what to do; nothing was changed.
 */
export class StoreOpenError extends JuneError {
  static override readonly marker: symbol = Symbol.for("june.StoreOpenError");
  override readonly name = "StoreOpenError";
  /** The store's factory, e.g. `sqliteStore`. */
  readonly store: string;
  /** The database file. */
  readonly path: string;
  constructor(options: { store: string; path: string; detail: string }) {
    super(`${options.store}: ${options.path} ${options.detail}`);
    this.store = options.store;
    this.path = options.path;
  }
}
