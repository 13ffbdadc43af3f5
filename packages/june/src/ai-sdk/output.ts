import { Output, type FlexibleSchema, type OutputInterface } from "ai";

/**
 * A step's structured output on both AI SDK lines. `Output.object({ schema })`, `Output.array`, `Output.choice`
 * and `Output.json` build the same `Output` on AI SDK 6 and 7, and both parse with `parseCompleteOutput({ text },
 * context)` and `parsePartialOutput({ text })`. What differs: AI SDK 7's `parseCompleteOutput` context leaves the
 * response's `messages` and `body` out (June hands neither), AI SDK 6 also names the `streamText` result's stream
 * `experimental_partialOutputStream` (7 drops the `experimental_` names); June reads neither stream, it parses the
 * step's own text, which holds every model call's.
 */

/** What the step was given as `output`: an AI SDK `Output`, or a schema (then `Output.object({ schema })`). */
export function toOutput(output: OutputInterface | FlexibleSchema<any> | undefined): OutputInterface | undefined {
  if (output === undefined) return undefined;
  const candidate = output as Partial<OutputInterface>;
  if (typeof candidate.parseCompleteOutput === "function" && "responseFormat" in candidate) return output as OutputInterface;
  return Output.object({ schema: output as never });
}

/** The finish information `parseCompleteOutput` is given (the last model call's, or none when it had none). */
export interface OutputFinish {
  readonly response: { readonly id: string; readonly timestamp: Date; readonly modelId: string };
  readonly usage: { readonly inputTokens: number | undefined; readonly outputTokens: number | undefined; readonly totalTokens: number | undefined };
  readonly finishReason: string;
}

/** The step's result: its text parsed and checked by the output (the AI SDK's `NoObjectGeneratedError` when it does not fit). */
export function parseOutput(output: OutputInterface, text: string, finish: OutputFinish | undefined): Promise<unknown> {
  const context = finish ?? {
    response: { id: "", timestamp: new Date(0), modelId: "" },
    usage: { inputTokens: undefined, outputTokens: undefined, totalTokens: undefined },
    finishReason: "other",
  };
  return output.parseCompleteOutput({ text }, context as never);
}

/** The value parsed from the text so far (a partial object), or undefined while nothing parses yet. */
export async function parsePartial(output: OutputInterface, text: string): Promise<unknown> {
  const parsed = await output.parsePartialOutput({ text });
  return parsed?.partial;
}
