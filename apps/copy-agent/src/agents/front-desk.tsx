import type { LanguageModel, ModelMessage } from "ai";
import { Agent, Step, type JuneElement } from "june";
import { scriptedModel, type ScriptCallInfo, type ScriptEntry } from "june/testing";
import { FRONT_DESK } from "./agents.js";

/** Which specialist a request is for, by its words (what the offline front desk routes on). */
export function specialistFor(request: string): string | undefined {
  if (/\b(headlines?|titles?|taglines?)\b/i.test(request)) return "headline-writer";
  if (/\b(translat\w*|french|spanish|german)\b/i.test(request)) return "translator";
  if (/\b(edit\w*|shorter|tighten|rewrite|proofread|fix)\b/i.test(request)) return "editor";
  return undefined;
}

type PromptMessage = ScriptCallInfo["options"]["prompt"][number];

function textOf(message: PromptMessage | undefined): string {
  if (!message || message.role === "system") return message?.content ?? "";
  if (typeof message.content === "string") return message.content;
  return message.content.map((part) => (part.type === "text" ? part.text : "")).join("");
}

/**
 * The front desk's offline model: it hands off (the `handoff` tool, with a reason) to the specialist the
 * user's words ask for, who answers the same message; a request it cannot place gets a question back.
 */
export function frontDeskModel(): LanguageModel {
  return scriptedModel(
    ({ options }): ScriptEntry => {
      const prompt = options.prompt;
      const request = textOf([...prompt].reverse().find((message) => message.role === "user"));
      const specialist = specialistFor(request);
      if (!specialist) return "I can hand you to the headline writer, the editor or the translator: what do you need?";
      return { toolCalls: [{ toolName: "handoff", input: { agent: specialist, reason: `The user asked: ${request.slice(0, 80)}` } }] };
    },
    { provider: "offline", modelId: "scripted-front" },
  );
}

/** The front desk's turn: one step that may hand the conversation on. */
export function FrontDeskWorkflow({ model, messages, input, handoff }: { model: LanguageModel; messages: ModelMessage[]; input: string; handoff?: JuneElement }) {
  return (
    <Agent model={model} instructions={FRONT_DESK.instructions}>
      {handoff}
      <Step id="reply" prompt={[...messages, { role: "user", content: input }]} />
    </Agent>
  );
}
