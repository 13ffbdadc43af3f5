import type { StudioClient } from "../api/client";
import type { SessionInfo } from "../api/types";
import { message } from "./message";

/** The sidebar's data as one immutable value: a new object on every change. */
export interface SessionsSnapshot {
  /** The chat's sessions, newest first. */
  sessions: SessionInfo[];
  /** True once the first listing answered (or failed). */
  loaded: boolean;
  error: string | null;
}

const EMPTY: SessionsSnapshot = Object.freeze({ sessions: [], loaded: false, error: null });

/**
 * The chat's sessions, with no React in it: listed, created, deleted and renamed. Views read it through
 * `subscribe` and `getSnapshot` (for `useSyncExternalStore`), like `ChatController`.
 */
export class SessionsController {
  readonly #client: StudioClient;
  readonly #listeners = new Set<() => void>();
  #state: SessionsSnapshot = EMPTY;

  constructor(options: { client: StudioClient }) {
    this.#client = options.client;
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  readonly getSnapshot = (): SessionsSnapshot => this.#state;

  /** Lists the sessions again; a failure shows as `error` (the list keeps what it had). */
  async refresh(): Promise<void> {
    try {
      const sessions = await this.#client.listSessions();
      this.#update({ sessions, error: null, loaded: true });
    } catch (caught) {
      this.#update({ error: message(caught), loaded: true });
    }
  }

  /** Creates a session and lists it. */
  async create(): Promise<SessionInfo> {
    const session = await this.#client.createSession();
    await this.refresh();
    return session;
  }

  /** Deletes a session: gone from the list at once, listed again once the server answered. */
  async remove(id: string): Promise<void> {
    this.#update({ sessions: this.#state.sessions.filter((session) => session.id !== id) });
    try {
      await this.#client.deleteSession(id);
    } finally {
      await this.refresh();
    }
  }

  /**
   * Renames a session: the new title shows at once, then as the server journaled it (whitespace collapsed,
   * credentials masked). When the server refuses, the old title comes back and the error is rethrown, for
   * the edit field to say why.
   */
  async rename(id: string, title: string): Promise<void> {
    const before = this.#state.sessions;
    this.#update({ sessions: before.map((session) => (session.id === id ? { ...session, title } : session)) });
    try {
      const renamed = await this.#client.renameSession(id, title);
      this.#update({ sessions: this.#state.sessions.map((session) => (session.id === id ? { ...session, ...renamed } : session)) });
    } catch (caught) {
      await this.refresh();
      throw caught;
    }
  }

  #update(patch: Partial<SessionsSnapshot>): void {
    this.#state = { ...this.#state, ...patch };
    for (const listener of [...this.#listeners]) listener();
  }
}
