import type { OutputInterface } from "ai";
import { parsePartial } from "../ai-sdk/output.js";
import type { RunState } from "./run-state.js";

/**
 * For a step with an `output`: told of the step's text as it grows, it parses the value so far and sets it on the
 * step's trace node as `partialOutput` (so a run's `onUpdate`, a chat's `run-update` and `/ui-chat` see it), each
 * time it changes. Parses run one after another, so a later text's value is never overwritten by an earlier one.
 */
export function partialOutputs(run: RunState, stepNodeId: string, output: OutputInterface): (stepText: string) => void {
  let latest = "";
  let shown = "";
  let parsing: Promise<void> | undefined;
  const parse = async (): Promise<void> => {
    while (true) {
      const text = latest;
      const value = await parsePartial(output, text).catch(() => undefined);
      if (value !== undefined) {
        const json = JSON.stringify(value);
        if (json !== shown) {
          shown = json;
          run.trace.update(stepNodeId, { partialOutput: value });
        }
      }
      if (latest === text) return;
    }
  };
  return (stepText) => {
    latest = stepText;
    parsing ??= parse().finally(() => (parsing = undefined));
  };
}
