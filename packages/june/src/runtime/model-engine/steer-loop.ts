import type { ModelMessage } from "ai";
import { callModel, type CallInput, type FinishedCall, type FinishInfo } from "./call-model.js";

/**
 * What comes after a finished call: the messages to call the model with next (tool results, approval
 * decisions: a new reply starts), `"end"` (the reply ends here, whatever input waits), or nothing (the reply
 * ends, unless steer input waits).
 */
export type AfterCall = (call: FinishedCall) => Promise<ModelMessage[] | "end" | undefined> | ModelMessage[] | "end" | undefined;

/** The reply the calls wrote: an interrupted call's text followed by its continuation's, and the last call's finish. */
export interface Reply {
  readonly text: string;
  readonly finish: FinishInfo | undefined;
}

/**
 * The one steer loop, for a model step and a model chat alike: calls the model (`callModel`) until a call ends
 * the reply. Steer input that interrupts a call keeps what the call wrote and calls again with the input after
 * it; input that arrives once a call stopped writing is answered by one more call, continuing the reply.
 * `input(history)` is each call's input; `after` decides what a finished call leads to.
 */
export async function steerLoop(input: (history: ModelMessage[]) => CallInput, history: ModelMessage[], after?: AfterCall): Promise<Reply> {
  let carry = "";
  for (;;) {
    const call = input(history);
    const outcome = await callModel(call);
    history = outcome.messages;
    if (outcome.kind === "interrupted") {
      carry += outcome.text;
      continue;
    }
    const next = after ? await after(outcome) : undefined;
    if (next !== undefined && next !== "end") {
      history = next;
      carry = "";
      continue;
    }
    // Input that arrived after the call stopped writing: the model answers it, continuing this reply.
    if (next === undefined && call.inbox.size > 0) {
      carry += outcome.text;
      continue;
    }
    return { text: carry + outcome.text, finish: outcome.finish };
  }
}
