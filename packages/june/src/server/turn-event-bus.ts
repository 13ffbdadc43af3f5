import type { TurnCommand } from "../chat/types.js";
import type { IndexedTurnStreamEvent } from "../chat/stream/turn-stream-event.js";

/**
 * A turn's events and controls, wherever the turn runs: in this process (a `LocalTurn`) or in another one
 * (read back from a `TurnEventBus`). Its events are already projected and redacted.
 */
export interface ServedTurn {
  readonly id: string;
  readonly sessionId: string;
  /** The events from index `from` on, waiting for new ones until the `turn-end` event or `signal` aborts. */
  read(from: number, signal?: AbortSignal): AsyncIterable<IndexedTurnStreamEvent>;
  /**
   * The events in so far, from index `from` on, without waiting for more: what a page reloaded now shows of
   * a running turn. A bus of your own may leave it out (such a turn then shows only what its journal has).
   */
  readSoFar?(from?: number): Promise<IndexedTurnStreamEvent[]>;
  /**
   * Applies a command to the turn where it runs. A turn that cannot take it rejects with the typed error the
   * turn threw (`ApprovalNotPendingError`, `TurnEndedError`, ...), rebuilt on this side when the turn runs
   * elsewhere; a process that cannot be asked, with an `HttpError` (503, 504).
   */
  control(command: TurnCommand): Promise<void>;
}

/**
 * Carries turns' events and controls between the processes that serve one chat. `createChatHandler`
 * publishes every turn it runs, and asks the bus for a turn it does not run, so a client can rejoin a turn
 * (`GET /turns/:id/events`) or approve, deny, cancel or steer it through any process.
 *
 * The default, `memoryTurnEvents()`, is a single process: there is no other process to ask. `june/server/redis`
 * has `redisTurnEvents()`, which shares turns through Redis.
 */
export interface TurnEventBus {
  /**
   * Shares a turn this process runs. Resolves once other processes can find it (the handler waits for that
   * before it answers the request that started the turn), and never rejects: a turn runs on whether or not
   * it could be shared. Called again with the same turn, it returns the first call's promise (a durable turn
   * resumed under the id of one that ended here is published anew).
   */
  publish(turn: ServedTurn): Promise<void>;
  /**
   * A turn running (or recently ended) in another process, or `undefined` when no process has it. With
   * `running`, only a turn that has not ended (a suspended one is ended) and whose process is alive: one
   * that can only be resumed is `undefined`. A turn this process published and still serves is answered
   * with the `ServedTurn` it published (the very object), so the handler tells its own copy from another
   * process's: a durable turn that suspended here and was resumed elsewhere is the other process's.
   */
  find(turnId: string, options?: { running?: boolean }): Promise<ServedTurn | undefined>;
  /** The id of a turn running in the session in another process, if any. */
  runningTurnId(sessionId: string): Promise<string | undefined>;
  /** Lets go of connections and timers the bus holds. */
  close(): Promise<void>;
}

/**
 * The single-process bus: turns are served by the process that runs them and nowhere else. It is what
 * `createChatHandler` uses when no `turnEvents` option is given.
 */
export function memoryTurnEvents(): TurnEventBus {
  return {
    publish: async () => {},
    find: async () => undefined,
    runningTurnId: async () => undefined,
    close: async () => {},
  };
}
