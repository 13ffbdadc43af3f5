import type { DeepPartial, FlexibleSchema, InferSchema, OutputInterface } from "ai";
import type { StepOutput } from "./components.js";

/** The value a step with this `output` results in: an `Output`'s complete output, or a schema's type. */
export type OutputValue<O extends StepOutput> = O extends OutputInterface<infer T, any, any> ? T : O extends FlexibleSchema<any> ? InferSchema<O> : unknown;

/** The value parsed so far while a step with this `output` streams (its trace node's `partialOutput`). */
export type PartialOutputValue<O extends StepOutput> = O extends OutputInterface<any, infer P, any> ? P : O extends FlexibleSchema<any> ? DeepPartial<InferSchema<O>> : unknown;

/**
 * A step's result, typed by the `output` it was given: JSX carries no types from `<Step output>` to
 * `result.steps`, so hand the same `Output` (or schema) here. The value is the one the step parsed and checked.
 *
 * @example
 * const card = Output.object({ schema: z.object({ title: z.string() }) });
 * const result = await start(<Agent model={model}><Step id="card" prompt="..." output={card} /></Agent>).result;
 * outputOf(result, "card", card).title; // string
 * @throws TypeError when the result has no step `stepId`.
 */
export function outputOf<O extends StepOutput>(result: { readonly steps: Readonly<Record<string, unknown>> }, stepId: string, _output: O): OutputValue<O> {
  if (!Object.hasOwn(result.steps, stepId)) throw new TypeError(`june: outputOf: the run has no result for step "${stepId}"`);
  return result.steps[stepId] as OutputValue<O>;
}
