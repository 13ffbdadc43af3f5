import type { ModelMessage, Tool as AITool, ToolSet } from "ai";
import { isQuestionTool } from "./questions.js";
import { StreamedStepToolError } from "./errors.js";
import { raceAbort } from "./scheduler.js";

/** Marks a tool of June's own that a streamed step may call (a team's `handoff`): see `streamSafe`. */
const streamSafeMarker: unique symbol = Symbol.for("june.streamSafeTool");

/**
 * Marks `value` as one of June's own tools that a streamed step may call at any point: its call changes nothing
 * outside the turn (a team's `handoff` names the next agent). `ask_user` is one too, by its own marker.
 */
export function streamSafe<T extends AITool<any, any>>(value: T): T {
  return Object.assign(value, { [streamSafeMarker]: true });
}

function isStreamSafe(value: unknown): boolean {
  return isQuestionTool(value) || (typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[streamSafeMarker] === true);
}

export interface StreamedStepGuard {
  /** The streamed step's tools: a call after streamed text refuses to run (see `guardStreamedStep`). */
  readonly tools: ToolSet;
  /** For the step's host: a tool call read from the model's stream. */
  readonly onToolCall: (toolCallId: string) => void;
  /** The first call refused, which fails the step after the model call it came in. */
  readonly refusal: () => StreamedStepToolError | undefined;
}

/**
 * A streamed step's tools (issue 41). A call of one of the workflow's tools after the step has streamed text is
 * refused before anything happens: its `execute` throws `StreamedStepToolError` instead of running, and it is
 * offered for no approval. Each check waits until the step has read the call from the model's stream (the AI
 * SDK starts a tool as it parses the call; the step reads the text before it first), so the text it reads is all
 * the model said before the call. A call before any text runs as before. June's own tools are never refused.
 */
export function guardStreamedStep(tools: ToolSet, options: { stepId: string; signal: AbortSignal; streamedText: () => string }): StreamedStepGuard {
  const seen = new Map<string, { promise: Promise<void>; resolve: () => void }>();
  let refusal: StreamedStepToolError | undefined;
  const slot = (toolCallId: string) => {
    let entry = seen.get(toolCallId);
    if (!entry) {
      let resolve!: () => void;
      const promise = new Promise<void>((r) => (resolve = r));
      entry = { promise, resolve };
      seen.set(toolCallId, entry);
    }
    return entry;
  };
  /**
   * True when the call of `toolCallId` came after streamed text (once the step has read it). A call the messages
   * already hold (an approved call the AI SDK runs from the approval response, in this process or after a
   * resume) was checked when the model made it, before it was offered for approval: it is not read again.
   */
  const refused = async (toolCallId: string, messages: readonly ModelMessage[] | undefined, callSignal?: AbortSignal): Promise<boolean> => {
    if (messages?.some((message) => message.role === "assistant" && typeof message.content !== "string" && message.content.some((part) => part.type === "tool-call" && part.toolCallId === toolCallId))) {
      return false;
    }
    // The call's own signal too: an interrupted call's late parts are never read.
    await raceAbort(slot(toolCallId).promise, callSignal ? AbortSignal.any([options.signal, callSignal]) : options.signal);
    return options.streamedText() !== "";
  };
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
            needsApproval: async (input: unknown, callOptions: { toolCallId: string; messages?: ModelMessage[]; abortSignal?: AbortSignal }) => {
              if (await refused(callOptions.toolCallId, callOptions.messages, callOptions.abortSignal)) return false;
              return typeof own === "function" ? Boolean(await (own as (...args: unknown[]) => unknown).call(value, input, callOptions)) : own;
            },
          }),
      execute: async (input: unknown, callOptions: { toolCallId: string; messages?: ModelMessage[]; abortSignal?: AbortSignal }) => {
        if (await refused(callOptions.toolCallId, callOptions.messages, callOptions.abortSignal)) throw (refusal ??= new StreamedStepToolError({ stepId: options.stepId, toolName: name }));
        return execute.call(value, input, callOptions as never);
      },
    } as AITool<any, any>;
  }
  return { tools: guarded, onToolCall: (toolCallId) => slot(toolCallId).resolve(), refusal: () => refusal };
}

/**
 * After a model call of a streamed step that had streamed text: the refusal for a call, in its last assistant
 * message, of a tool with no `execute` that is not June's own (a `<Tool agent>`'s, which June would run next,
 * or a client's).
 */
export function refusedCall(messages: readonly ModelMessage[], tools: ToolSet, stepId: string, streamedText: string): StreamedStepToolError | undefined {
  if (streamedText === "") return undefined;
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
