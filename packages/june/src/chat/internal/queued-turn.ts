import type { Turn } from "../types.js";

/**
 * The session's method a worker runs a queued turn with: `session[startQueuedTurn](turnId, input)` starts the
 * turn under the id it was enqueued with. Keyed by a symbol so it is no part of the `Session` interface.
 */
export const startQueuedTurn: unique symbol = Symbol.for("june.startQueuedTurn");

/** A session that runs queued turns (every session a chat opens). */
export interface QueuedTurnStarter {
  [startQueuedTurn](turnId: string, input: string): Turn;
}
