import type { Session } from "../chat/types.js";
import { valueKind } from "../errors/value-kind.js";
import { OWNER_MAX_CHARS, unstorableText } from "../stores/journal-entries.js";
import { ConflictError, SessionNotFoundError } from "../stores/errors.js";
import type { ListSessionsOptions, SessionInfo } from "../stores/types.js";
import type { HandlerContext } from "./handler-context.js";
import { HttpError } from "./http-error.js";
import type { ServedTurn } from "./turn-event-bus.js";

/**
 * Who a request is from, as `createChatHandler`'s `authorize` answers it: `owner` names the user (the sessions
 * they create are theirs), and anything else the app wants to carry (a team, a role) rides along for `canAccess`.
 */
export interface Principal {
  readonly owner: string;
  readonly [key: string]: unknown;
}

/**
 * `createChatHandler`'s `authorize`: `false` answers 401; `true` lets the request reach every session (one
 * user, or a trusted caller); a `Principal` reaches only its own sessions (and those `canAccess` grants).
 */
export type Authorize = (request: Request) => boolean | Principal | Promise<boolean | Principal>;

/**
 * `createChatHandler`'s `canAccess`: whether a principal may use a session that is not its own (a teammate's,
 * or any, for an admin). Asked only for sessions another owner (or no owner) has; listing shows the
 * principal's own sessions only.
 */
export type CanAccess = (principal: Principal, session: SessionInfo) => boolean | Promise<boolean>;

/** The path parameters that name a session (`/sessions/:id`; a chat's id is its session's). `:turnId` names a turn. */
export const SESSION_PARAMS: readonly string[] = ["id", "sessionId", "chatId"];
/**
 * The ones `guard` checks before the route runs. `:chatId` is a `useChat` chat the client names, which may not
 * exist yet: its routes answer one that is not there, or not the caller's, as having nothing running (a 204,
 * `/ui-chat/:chatId/...`) or no messages (`[]`, `/sessions/:chatId/ui-messages`), so they open it through
 * `open` themselves.
 */
const GUARDED_PARAMS: readonly string[] = ["id", "sessionId"];

/**
 * The caller's view of the chat's sessions: the one place a route gets a session or a turn. The handler makes
 * one per request from what `authorize` answered, checks every route's `:id` (a session id) through it before
 * the route runs (`guard`), and routes open, create, list and find through it.
 *
 * With a principal, a session that is not the caller's (and that `canAccess` does not grant) is answered
 * exactly as one that does not exist: `SessionNotFoundError` (404), and a turn of it is not found. Without one
 * (`authorize` answered `true`, or there is none), every session is reachable, as for a single user.
 */
export class SessionAccess {
  /** Who asks; `undefined` when the request reaches every session. */
  readonly principal: Principal | undefined;
  readonly #context: HandlerContext;
  readonly #canAccess: CanAccess | undefined;
  /** The session ids this request was found to reach (a `SessionAccess` lives for one request). */
  readonly #checked = new Set<string>();

  constructor(context: HandlerContext, principal: Principal | undefined, canAccess?: CanAccess) {
    this.#context = context;
    this.principal = principal;
    this.#canAccess = canAccess;
  }

  /**
   * What every route's path parameters name, checked before the route runs: `:id` (or `:sessionId`, `:chatId`)
   * is a session id, which must be the caller's. With a principal, an unknown and another owner's session answer the same 404 here, before
   * anything of the request (its body) is read.
   */
  async guard(params: Readonly<Record<string, string>>): Promise<void> {
    for (const name of GUARDED_PARAMS) if (params[name] !== undefined) await this.check(params[name]);
  }

  /**
   * Throws `SessionNotFoundError` unless the caller may use session `id`: for a session id a request names
   * elsewhere than its path (a body's). Without a principal there is nothing to check (the route's own
   * opening of the session answers for one that does not exist).
   */
  async check(id: string): Promise<void> {
    // One check per session and request: the guard's, then the route's own `open` of the same id, read it once.
    if (this.principal === undefined || this.#checked.has(id)) return;
    await this.info(id);
    this.#checked.add(id);
  }

  /** The session's description when the caller may use it; else `SessionNotFoundError`, as for none. */
  async info(id: string): Promise<SessionInfo> {
    const info = await this.#context.chat.store.getSession(id);
    if (info === undefined || !(await this.#allows(info))) throw new SessionNotFoundError(id);
    return info;
  }

  /** The caller's session, opened; `SessionNotFoundError` for one that is not the caller's or does not exist. */
  async open(id: string): Promise<Session> {
    await this.check(id);
    return this.#context.chat.openSession(id);
  }

  /** A new session of the caller's (owned by the principal, if any). */
  create(options: { id?: string; metadata?: Record<string, unknown> } = {}): Promise<Session> {
    const owner = this.principal?.owner;
    return this.#context.chat.createSession({ ...options, ...(owner !== undefined && { owner }) });
  }

  /**
   * The caller's session `id`, created (theirs) when there is none: `/ui-chat`'s, whose client names the chat.
   * An id another owner has is `SessionNotFoundError`: the caller never writes into it.
   */
  async openOrCreate(id: string): Promise<Session> {
    try {
      return await this.open(id);
    } catch (error) {
      if (!SessionNotFoundError.isInstance(error)) throw error;
      // Another owner's: refused as if it did not exist, and never created over.
      if (this.principal !== undefined && (await this.#context.chat.store.getSession(id)) !== undefined) throw error;
    }
    try {
      return await this.create({ id });
    } catch (error) {
      // Created by a concurrent request in between: theirs, or someone else's.
      if (ConflictError.isInstance(error)) return this.open(id);
      throw error;
    }
  }

  /** The caller's sessions, newest first: with a principal, only its own (read by owner, not filtered from all). */
  async list(options: ListSessionsOptions = {}): Promise<SessionInfo[]> {
    const owner = this.principal?.owner;
    if (owner === undefined) return this.#context.chat.listSessions(options);
    const sessions = await this.#context.chat.listSessions({ ...options, owner });
    // A store of your own that ignores `owner` still shows nobody another's sessions.
    return sessions.filter((session) => session.owner === owner);
  }

  /** A turn (see `HandlerContext.find`) of a session the caller may use, else `undefined`, as for no turn. */
  async find(turnId: string, options: { running?: boolean } = {}): Promise<ServedTurn | undefined> {
    const turn = await this.#context.find(turnId, options);
    if (turn === undefined || this.principal === undefined) return turn;
    const info = await this.#context.chat.store.getSession(turn.sessionId);
    return info !== undefined && (await this.#allows(info)) ? turn : undefined;
  }

  /** Like `find`, but a turn the caller cannot reach is a 404, as for one no process has. */
  async served(turnId: string): Promise<ServedTurn> {
    const found = await this.find(turnId);
    if (!found) throw new HttpError(404, `No live or recent turn "${turnId}"`);
    return found;
  }

  async #allows(info: SessionInfo): Promise<boolean> {
    const principal = this.principal;
    if (principal === undefined || (info.owner !== undefined && info.owner === principal.owner)) return true;
    return this.#canAccess !== undefined && (await this.#canAccess(principal, info)) === true;
  }
}

/**
 * What `authorize` answered, checked: `undefined` for `true` (every session), the principal for `{ owner }`.
 * `false` (or nothing) is a 401; anything else is the app's mistake, a 500 that says what `authorize` must answer.
 */
export function principalOf(answer: unknown): Principal | undefined {
  if (answer === true) return undefined;
  // `false`, or an `authorize` that answered nothing.
  if (answer === false || answer === undefined || answer === null) throw new HttpError(401, "Unauthorized");
  if (typeof answer === "object" && answer !== null && !Array.isArray(answer)) {
    const owner = (answer as { owner?: unknown }).owner;
    if (typeof owner === "string" && owner.length > 0 && owner.length <= OWNER_MAX_CHARS) {
      // An owner no store keeps exactly would read (and list) the sessions of every owner it folds into.
      const problem = unstorableText(owner);
      if (problem === undefined) return answer as Principal;
      throw new HttpError(500, `createChatHandler: authorize answered an "owner" that ${problem}: an owner must be well-formed Unicode without NUL`);
    }
    throw new HttpError(500, `createChatHandler: authorize answered an object whose "owner" is ${valueKind(owner)}: it must be a string of 1 to ${OWNER_MAX_CHARS} characters`);
  }
  throw new HttpError(500, `createChatHandler: authorize must answer true, false or { owner: string }, got ${valueKind(answer)}`);
}
