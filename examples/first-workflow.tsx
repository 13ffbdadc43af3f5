/** @jsxRuntime automatic */
/** @jsxImportSource june */
/**
 * A first June workflow: a research step, then a summary step that reads its result. Offline: the model
 * is `scriptedModel` from `june/testing` unless `--model` passes a real one (the component gets
 * `{ input, model }`).
 *
 *   npx june run examples/first-workflow.tsx --input "the history of the bicycle"
 *   OPENAI_API_KEY=sk-... npx june run examples/first-workflow.tsx --input "solar sails" --model openai:gpt-5-mini
 */
import type { LanguageModel } from "ai";
import { Agent, Step } from "june";
import { scriptedModel } from "june/testing";

const offlineModel = scriptedModel(({ index }) =>
  index % 2 === 0
    ? { text: ["Three facts: ", "the draisine (1817), ", "pedals (1860s), ", "the safety bicycle (1885)."], delay: 30 }
    : { text: ["Bicycles went from ", "pushing with your feet ", "to chain-driven safety bikes ", "in under seventy years."], delay: 30 },
);

export default function Research({ input, model = offlineModel }: { input: string; model?: LanguageModel }) {
  return (
    <Agent model={model} instructions="You are a careful, brief researcher.">
      <Step id="facts" prompt={`List three key facts about ${input}.`} />
      <Step id="summary" stream prompt={(ctx) => `Summarize in one sentence: ${String(ctx.steps.facts)}`} />
    </Agent>
  );
}
