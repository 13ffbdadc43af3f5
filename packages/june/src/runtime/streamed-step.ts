import type { ModelMessage, Tool as AITool, ToolSet } from "ai";
import { isQuestionTool } from "./questions.js";
import { StreamedStepToolError } from "./errors.js";

/** Marks a tool of June's own that a streamed step may call (a team's `handoff`): see `streamSafe`. */
const streamSafeMarker: unique symbol = Symbol.for("june.streamSafeTool");

/**
 * Marks `value` as one of June's own tools that a streamed step may call: its call changes nothing outside June
 * and is never streamed as reply text (a team's `handoff` names the next agent; memory's `update_memory` keeps a
 * note in the chat's store). `ask_user` is one too, by its own marker.
 */
export function streamSafe<T extends AITool<any, any>>(value: T): T {
  return Object.assign(value, { [streamSafeMarker]: true });
}

/** True for June's own tools a streamed step may call: `ask_user` and those marked `streamSafe`. */
export function isStreamSafe(value: unknown): boolean {
  return isQuestionTool(value) || (typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[streamSafeMarker] === true);
}

export interface StreamedStepGuard {
  /** The streamed step's tools: a call of one of the workflow's refuses to run (see `guardStreamedStep`). */
  readonly tools: ToolSet;
  /** The first call refused, which fails the step after the model call it came in. */
  readonly refusal: () => StreamedStepToolError | undefined;
}

/** True when the messages a call was sent with already hold it: an approved call the AI SDK runs from its response. */
function heldCall(toolCallId: string, messages: readonly ModelMessage[] | undefined): boolean {
  return (
    messages?.some(
      (message) => message.role === "assistant" && typeof message.content !== "string" && message.content.some((part) => part.type === "tool-call" && part.toolCallId === toolCallId),
    ) === true
  );
}

/**
 * A streamed step's tools (issue 41): the step streams a reply, and calls none of the workflow's tools. A call of
 * one is refused before anything happens, whether or not the step streamed text first: its `execute` throws
 * `StreamedStepToolError` instead of running, it is offered for no approval, and the step fails after the model
 * call it came in. June's own tools (`ask_user`, a team's `handoff`, memory's `update_memory`: see `streamSafe`)
 * are never refused. A call the messages already hold (an approved call from a checkpoint saved before the rule,
 * which the AI SDK runs from the approval response) was decided by a person: it runs.
 */
export function guardStreamedStep(tools: ToolSet, options: { stepId: string }): StreamedStepGuard {
  let refusal: StreamedStepToolError | undefined;
  const guarded: ToolSet = {};
  for (const [name, value] of Object.entries(tools)) {
    const execute = value.execute;
    if (isStreamSafe(value) || typeof execute !== "function") {
      guarded[name] = value;
      continue;
    }
    const own = value.needsApproval;
    guarded[name] = {
      ...value,
      ...(own === undefined || own === false
        ? {}
        : {
            needsApproval: async (input: unknown, callOptions: { toolCallId: string; messages?: ModelMessage[] }) => {
              if (!heldCall(callOptions.toolCallId, callOptions.messages)) return false;
              return typeof own === "function" ? Boolean(await (own as (...args: unknown[]) => unknown).call(value, input, callOptions)) : own;
            },
          }),
      execute: async (input: unknown, callOptions: { toolCallId: string; messages?: ModelMessage[] }) => {
        if (!heldCall(callOptions.toolCallId, callOptions.messages)) throw (refusal ??= new StreamedStepToolError({ stepId: options.stepId, toolName: name }));
        return execute.call(value, input, callOptions as never);
      },
    } as AITool<any, any>;
  }
  return { tools: guarded, refusal: () => refusal };
}

/**
 * After a model call of a streamed step: the refusal for a call, in its last assistant message, of a tool with no
 * `execute` that is not June's own (a `<Tool agent>`'s, which June would run next, or a client's).
 */
export function refusedCall(messages: readonly ModelMessage[], tools: ToolSet, stepId: string): StreamedStepToolError | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role === "tool") continue;
    if (message.role !== "assistant" || typeof message.content === "string") return undefined;
    for (const part of message.content) {
      if (part.type !== "tool-call" || part.providerExecuted) continue;
      const tool = tools[part.toolName];
      if (!isStreamSafe(tool) && typeof tool?.execute !== "function") return new StreamedStepToolError({ stepId, toolName: part.toolName });
    }
    return undefined;
  }
  return undefined;
}
