import { ConflictError, assertSessionId, isSessionId } from "./errors.js";

/** The `ConflictError` of an append whose `expectedSeq` is not the journal's last seq. */
export function conflict(sessionId: string, expectedSeq: number, lastSeq: number): ConflictError {
  return new ConflictError(
    sessionId,
    `Journal of session "${sessionId}" is at seq ${lastSeq}, the append expected ${expectedSeq}: read it again`,
  );
}

/** Checks `acquireTurn`'s `ttlMs`; Infinity when not given. */
export function checkTtl(ttlMs: unknown): number {
  if (ttlMs === undefined) return Infinity;
  if (typeof ttlMs !== "number" || !(ttlMs > 0)) throw new TypeError("acquireTurn: `ttlMs` must be a number > 0");
  return ttlMs;
}

/** Checks `read`'s `fromSeq`: a whole number (below 1 reads from the start). */
export function checkFromSeq(fromSeq: unknown): number {
  if (fromSeq === undefined) return 1;
  if (typeof fromSeq !== "number" || !Number.isInteger(fromSeq)) {
    throw new TypeError("read: `fromSeq` must be a whole number");
  }
  return Math.max(1, fromSeq);
}

/** Checks the arguments of a checkpoint call: a safe session id, a turn id of the same alphabet, text data. */
export function checkCheckpointArgs(method: string, sessionId: unknown, turnId: unknown, data?: unknown): void {
  assertSessionId(sessionId);
  if (!isSessionId(turnId)) {
    throw new TypeError(`${method}: \`turnId\` must be 1 to 128 letters, digits, "-" or "_", got ${JSON.stringify(String(turnId)).slice(0, 60)}`);
  }
  if (data !== undefined && typeof data !== "string") throw new TypeError(`${method}: \`data\` must be a string`);
}
