import type { Responder } from "../types.js";

/**
 * Where a responder keeps what must be ready before its `resume()` (not part of the public `Responder` type):
 * `agentResponder` loads the agent runtime on its first turn, but a resumed run starts synchronously in
 * `resume()`, so the chat awaits this first.
 */
export const PREPARE = Symbol("june.responder.prepare");

/** What `responder` needs ready before `resume()`, or undefined when it is ready. */
export function prepareResponder(responder: Responder): Promise<unknown> | undefined {
  return (responder as { [PREPARE]?: () => Promise<unknown> | undefined })[PREPARE]?.();
}
