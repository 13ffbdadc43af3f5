/** An e2e fixture for `june run`: a component that takes `{ input }`, two steps, the second's result last. */
import { Agent, Step } from "june";
import { openai } from "june/sdk/openai";

export default function Summarize({ input }: { input: string }) {
  return (
    <Agent model={openai("gpt-5-mini")}>
      <Step id="notes" prompt={`Take notes on: ${input}`} />
      <Step id="summary" prompt={(ctx) => `Summarize these notes: ${String(ctx.steps.notes)}`} />
    </Agent>
  );
}
