/**
 * An e2e fixture for `june run`: a component that takes `{ input, model }` (its own model unless `--model`
 * names one), two steps, the second's result last.
 */
import type { LanguageModel } from "ai";
import { Agent, Step } from "june";
import { openai } from "june/sdk/openai";

export default function Summarize({ input, model = openai("gpt-5-mini") }: { input: string; model?: LanguageModel }) {
  return (
    <Agent model={model}>
      <Step id="notes" prompt={`Take notes on: ${input}`} />
      <Step id="summary" prompt={(ctx) => `Summarize these notes: ${String(ctx.steps.notes)}`} />
    </Agent>
  );
}
