/**
 * Fairness between sessions: a store whose calls finish without I/O (memoryStore, fileStore's synchronous
 * small calls, sqliteStore's synchronous driver) resolves its promises in microtasks, and so does the rest of a
 * turn with a fast model. Sessions that never wait on I/O then run turn after turn while the event loop never
 * reaches its I/O phase: a session whose store or model does wait (a journal being opened, a socket) waits for
 * all of them, and so does everything else in the process (an HTTP request). `shareEventLoop()` lets the loop
 * turn when it has not for `budgetMs`: it returns a promise that resolves on the next `setImmediate`, else
 * undefined (no cost: nothing to await).
 */

/** How long synchronous and microtask work may run before a store call lets the loop turn. */
const BUDGET_MS = 4;

let lastTurnAt = performance.now();
let marker: ReturnType<typeof setImmediate> | undefined;

function markTurn(): void {
  lastTurnAt = performance.now();
  marker = undefined;
}

/** A promise to await before a store call's work when the event loop has not turned for a while, else undefined. */
export function shareEventLoop(budgetMs = BUDGET_MS): Promise<void> | undefined {
  // The loop turned since the last call when the marker's immediate ran: lastTurnAt says when.
  marker ??= setImmediate(markTurn);
  if (performance.now() - lastTurnAt < budgetMs) return undefined;
  return new Promise<void>((resolve) => setImmediate(resolve));
}
