import type { ModelMessage } from "ai";
import { promptExcerpt, responseExcerpt } from "../message-excerpt.js";
import { endFields, toTraceError } from "../run-state.js";
import type { Cost } from "../../cost/price.js";
import type { ModelAttemptFailure, ModelCallNode, ModelInfo, TraceMessage, Usage } from "../types.js";

/** A model call's node as it starts: every field but `id` and `children`. */
export type NewCallNode = Omit<ModelCallNode, "id" | "children">;

/** A change to a call's node. */
export type CallPatch = { -readonly [K in keyof NewCallNode]?: NewCallNode[K] };

/** How a call ended, as its node says. */
export type CallEnd =
  | { readonly kind: "done"; readonly response: readonly ModelMessage[]; readonly usage: Usage; readonly cost?: Cost; readonly finishReason: string }
  | { readonly kind: "interrupted"; readonly text: string }
  | { readonly kind: "canceled"; readonly text: string }
  | { readonly kind: "failed"; readonly error: unknown };

/**
 * The one shape of a model call's node, whoever keeps it (a run's trace, a model chat's turn): what it starts
 * with, what each failed request adds, how it ends. The engine makes every patch; a host only stores them.
 */
export const callNode = {
  /** A call sent `messages` after `system`: its prompt as bounded, redacted excerpts, never the history itself. */
  start(model: ModelInfo, system: string | undefined, messages: readonly ModelMessage[], at = Date.now()): NewCallNode {
    const { prompt, omitted } = promptExcerpt(system, messages);
    const node: CallPatch = { kind: "model-call", name: model.modelId, status: "running", startedAt: at, model, partialText: "", prompt };
    if (omitted > 0) node.promptOmitted = omitted;
    return node as NewCallNode;
  },

  /** A request of the call failed (the AI SDK may retry it): the node's failures with this one added. */
  attemptFailed(failed: readonly ModelAttemptFailure[] | undefined, attempt: number, startedAt: number, error: unknown, at: number): CallPatch {
    const failure: ModelAttemptFailure = { attempt, startedAt, endedAt: at, error: toTraceError(error) };
    return { failedAttempts: failed ? [...failed, failure] : [failure] };
  },

  /** The fields that end the call. */
  end(end: CallEnd, at = Date.now()): CallPatch {
    switch (end.kind) {
      case "done": {
        const patch: CallPatch = { status: "done", endedAt: at, usage: end.usage, finishReason: end.finishReason };
        if (end.cost) patch.cost = end.cost;
        if (end.response.length > 0) patch.response = responseExcerpt(end.response);
        return patch;
      }
      case "interrupted":
        return withText({ status: "done", endedAt: at, finishReason: "interrupted" }, end.text);
      case "canceled":
        return withText({ status: "canceled", endedAt: at }, end.text);
      case "failed":
        return endFields(end.error, at);
      default: {
        const unreachable: never = end;
        throw new TypeError(`june: unknown model call end ${String(unreachable)}`);
      }
    }
  },
};

/** A stopped call's node keeps what it wrote, as its response. */
function withText(patch: CallPatch, text: string): CallPatch {
  if (text) patch.response = responseExcerpt([{ role: "assistant", content: text }]) as TraceMessage[];
  return patch;
}
