import type { ModelMessage } from "ai";
import { ResponderContractError } from "./errors.js";
import type { Responder, ResponderResult } from "./types.js";
import { userMessage, type TurnFile } from "./files/turn-input.js";

export interface ReplayOptions {
  responder: Responder;
  sessionId: string;
  turnId: string;
  input: string;
  /** The turn's files, with their bytes. */
  files?: readonly TurnFile[];
  messages: ModelMessage[];
}

/**
 * Calls a responder once outside any turn: nothing is journaled and no lease is taken. Its events, if any,
 * are read and dropped (a responder may wait for them to be read). Resolves to its result.
 */
export async function replayTurn(options: ReplayOptions): Promise<ResponderResult> {
  const abort = new AbortController();
  const execution = options.responder.respond({
    input: options.input,
    ...(options.files && options.files.length > 0 ? { files: options.files } : {}),
    message: userMessage(options.input, options.files ?? []),
    messages: options.messages,
    signal: abort.signal,
    sessionId: options.sessionId,
    turnId: options.turnId,
  });
  if (typeof execution !== "object" || execution === null || typeof execution.result?.then !== "function") {
    throw new ResponderContractError("respond() must return an execution with a `result` promise");
  }
  const drained = (async () => {
    if (execution.events) for await (const _event of execution.events) void _event;
  })();
  try {
    const [result] = await Promise.all([execution.result, drained]);
    if (typeof result !== "object" || result === null || typeof result.text !== "string") {
      throw new ResponderContractError("The responder's result must be an object with a string `text`");
    }
    return result;
  } catch (error) {
    abort.abort(error);
    throw error;
  }
}
