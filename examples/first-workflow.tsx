/**
 * A first June workflow: a research step, then a summary step that reads its result. Offline: the model
 * is `scriptedModel` from `june/testing`. Swap in `openai("gpt-5-mini")` from `june/sdk/openai` (with
 * OPENAI_API_KEY set) for a real one.
 *
 *   npx june run examples/first-workflow.tsx --input "the history of the bicycle"
 */
import { Agent, Step } from "june";
import { scriptedModel } from "june/testing";

const model = scriptedModel(({ index }) =>
  index % 2 === 0
    ? { text: ["Three facts: ", "the draisine (1817), ", "pedals (1860s), ", "the safety bicycle (1885)."], delay: 30 }
    : { text: ["Bicycles went from ", "pushing with your feet ", "to chain-driven safety bikes ", "in under seventy years."], delay: 30 },
);

export default function Research({ input }: { input: string }) {
  return (
    <Agent model={model} instructions="You are a careful, brief researcher.">
      <Step id="facts" prompt={`List three key facts about ${input}.`} />
      <Step id="summary" stream prompt={(ctx) => `Summarize in one sentence: ${String(ctx.steps.facts)}`} />
    </Agent>
  );
}
