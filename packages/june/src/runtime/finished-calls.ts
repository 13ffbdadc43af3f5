import { getErrorMessage } from "@ai-sdk/provider";
import type { Tool as AITool, ToolResultPart } from "ai";
import type { Checkpointer } from "./checkpoint.js";
import type { CheckpointRequest } from "./types.js";

/** A tool call's outcome as the model is given it: what a checkpoint keeps of an approved call that finished. */
export type ToolCallOutput = NonNullable<CheckpointRequest["output"]>;

/** Where an approved call's outcome goes, and what stops the step when it cannot be stored. */
export interface KeepOutcome {
  readonly checkpoints: Checkpointer;
  readonly stepId: string;
  /** Called with the store's error when an outcome could not be stored; the step must not go on. */
  readonly onWriteFailed: (error: unknown) => void;
}

/**
 * Runs an approved call's `execute` and stores its outcome in the checkpoint (the result as the model is given
 * it, or its error's message) before handing it back: the AI SDK makes the next model call only after that, so
 * a process that dies during that call leaves the outcome stored, and a resume neither asks for nor runs the
 * call again. A call the checkpoint does not mark started (not approved, or no checkpoint) runs as it is.
 */
export function keepOutcome(
  keep: KeepOutcome,
  tool: AITool<any, any>,
  run: () => unknown,
  call: { readonly toolCallId: string; readonly input: unknown },
): unknown {
  const { checkpoints, stepId } = keep;
  if (!checkpoints.isStarted(stepId, call.toolCallId)) return run();
  const store = async (output: Promise<ToolCallOutput> | ToolCallOutput): Promise<void> => {
    try {
      await checkpoints.toolFinished(stepId, call.toolCallId, await output);
    } catch (error) {
      keep.onWriteFailed(error);
    }
  };
  let result: unknown;
  try {
    result = run();
  } catch (error) {
    return store(errorOutput(error)).then(() => Promise.reject(error));
  }
  if (isAsyncIterable(result)) return keepLast(result, tool, call, store);
  return Promise.resolve(result).then(
    async (output) => {
      await store(modelOutput(tool, call, output));
      return output;
    },
    async (error: unknown) => {
      await store(errorOutput(error));
      throw error;
    },
  );
}

/** A streaming tool (an async iterable): its last value is its result, stored once it ends. */
async function* keepLast(
  result: AsyncIterable<unknown>,
  tool: AITool<any, any>,
  call: { readonly toolCallId: string; readonly input: unknown },
  store: (output: Promise<ToolCallOutput> | ToolCallOutput) => Promise<void>,
): AsyncGenerator<unknown> {
  let last: unknown;
  try {
    for await (const value of result) {
      last = value;
      yield value;
    }
  } catch (error) {
    await store(errorOutput(error));
    throw error;
  }
  await store(modelOutput(tool, call, last));
}

/** The result as the AI SDK gives it to the model: the tool's `toModelOutput`, else text for a string, else JSON. */
function modelOutput(tool: AITool<any, any>, call: { readonly toolCallId: string; readonly input: unknown }, output: unknown): Promise<ToolCallOutput> | ToolCallOutput {
  if (typeof tool.toModelOutput === "function") return Promise.resolve(tool.toModelOutput({ toolCallId: call.toolCallId, input: call.input, output }));
  return typeof output === "string" ? { type: "text", value: output } : { type: "json", value: (output ?? null) as never };
}

/** A thrown error as the AI SDK gives it to the model. */
function errorOutput(error: unknown): ToolCallOutput {
  return { type: "error-text", value: getErrorMessage(error) };
}

/** The `tool-result` parts of a restored step's approved calls that finished, to send with its decisions. */
export function finishedResults(requests: readonly CheckpointRequest[]): ToolResultPart[] {
  const parts: ToolResultPart[] = [];
  for (const request of requests) {
    if (request.output === undefined || request.decision?.approved !== true) continue;
    parts.push({ type: "tool-result", toolCallId: request.toolCallId, toolName: request.toolName, output: request.output });
  }
  return parts;
}

/** What the trace shows as a finished call's output: the value given to the model. */
export function traceOutput(output: ToolCallOutput): unknown {
  return "value" in output ? output.value : output;
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof value === "object" && value !== null && typeof (value as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === "function";
}
