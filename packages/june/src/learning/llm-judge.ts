import type { LanguageModel, ModelMessage } from "ai";
import { streamModel } from "../ai-sdk/stream-model.js";
import { JudgeResponseError } from "./errors.js";
import { named } from "./scorers.js";
import type { EvalCase, Scorer } from "./types.js";

export interface LlmJudgeOptions {
  /** The model that grades. */
  model: LanguageModel;
  /** What a good reply is: the grading criteria, in plain words. */
  rubric: string;
  /** Show the judge the case's recorded reply as a reference (default true). */
  reference?: boolean;
  temperature?: number;
  maxOutputTokens?: number;
}

const SYSTEM = `You grade the replies of an AI assistant. Read the conversation, the user's input and the candidate reply, and grade the candidate reply against the rubric.
Answer with JSON only, no other text: {"score": <a number from 0 to 1>, "reason": "<one short sentence>"}. 1 means the reply fully meets the rubric, 0 that it does not meet it at all.`;

/**
 * A scorer that asks a model to grade the reply against a rubric, from 0 to 1. The judge sees the earlier
 * messages, the input, the candidate reply and (unless `reference: false`) the recorded reply, and answers
 * with `{"score": ..., "reason": ...}`; a reply with no score from 0 to 1 in it is a `JudgeResponseError`.
 *
 * @example
 * llmJudge({ model: openai("gpt-5-mini"), rubric: "Answers the question in two sentences or fewer, politely." })
 */
export function llmJudge(options: LlmJudgeOptions): Scorer {
  if (typeof options !== "object" || options === null || options.model === undefined || options.model === null) {
    throw new TypeError("llmJudge({ model, rubric }): model must be a LanguageModel");
  }
  if (typeof options.rubric !== "string" || options.rubric.trim() === "") {
    throw new TypeError("llmJudge({ model, rubric }): rubric must be a non-empty string");
  }
  const { model, rubric, reference = true } = options;
  return named("llmJudge", async (evalCase, reply, context) => {
    let failure: unknown;
    const { result } = streamModel({
      model,
      instructions: `${SYSTEM}\n\nRubric:\n${rubric.trim()}`,
      messages: [{ role: "user", content: judgePrompt(evalCase, reply, reference) }],
      abortSignal: context?.signal,
      settings: {
        ...(options.temperature !== undefined && { temperature: options.temperature }),
        ...(options.maxOutputTokens !== undefined && { maxOutputTokens: options.maxOutputTokens }),
      },
      onError: (error) => {
        failure ??= error;
      },
    });
    let text: string;
    try {
      text = await result.text;
    } catch (error) {
      throw failure ?? error;
    }
    if (failure !== undefined) throw failure;
    return parseJudgeScore(text);
  });
}

/** The judge's user prompt: the conversation so far, the input, the reference and the candidate reply. */
function judgePrompt(evalCase: EvalCase, reply: string, reference: boolean): string {
  const parts: string[] = [];
  if (evalCase.messages.length > 0) {
    parts.push(`<conversation>\n${evalCase.messages.map((message) => `${message.role}: ${textOf(message)}`).join("\n\n")}\n</conversation>`);
  }
  parts.push(`<input>\n${evalCase.input}\n</input>`);
  if (reference && evalCase.reply !== "") {
    parts.push(`<reference_reply note="recorded earlier; it may be better or worse than the candidate">\n${evalCase.reply}\n</reference_reply>`);
  }
  parts.push(`<candidate_reply>\n${reply}\n</candidate_reply>`);
  return parts.join("\n\n");
}

function textOf(message: ModelMessage): string {
  if (typeof message.content === "string") return message.content;
  return message.content
    .map((part) => ("text" in part && typeof part.text === "string" ? part.text : `[${part.type}]`))
    .join("");
}

const NUMBER = String.raw`(-?\d+(?:\.\d+)?)`;

/**
 * The score in a judge's reply: `{"score": 0.8}` (also inside a fenced block or around other text),
 * `Score: 0.8`, `score = 4/5`, or the reply being a bare number or fraction. It must come out from 0 to 1.
 */
export function parseJudgeScore(text: string): number {
  const fail = (why: string): never => {
    throw new JudgeResponseError(`The judge's reply ${why}: ${JSON.stringify(text.length > 120 ? `${text.slice(0, 120)}…` : text)}`, { text });
  };
  let score: number | undefined;
  const start = text.indexOf("{");
  const end = text.lastIndexOf("}");
  if (start !== -1 && end > start) {
    try {
      const value = (JSON.parse(text.slice(start, end + 1)) as { score?: unknown }).score;
      if (typeof value === "number") score = value;
      else if (typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value))) score = Number(value);
    } catch {
      // Not JSON after all: try the plain forms below.
    }
  }
  if (score === undefined) {
    const labeled = new RegExp(String.raw`"?score"?\s*[:=]\s*"?${NUMBER}(?:\s*\/\s*${NUMBER})?`, "i").exec(text);
    const bare = new RegExp(String.raw`^\s*${NUMBER}(?:\s*\/\s*${NUMBER})?\s*\.?\s*$`).exec(text);
    const match = labeled ?? bare;
    if (match) score = match[2] === undefined ? Number(match[1]) : Number(match[1]) / Number(match[2]);
  }
  if (score === undefined || !Number.isFinite(score)) return fail("has no score");
  if (score < 0 || score > 1) return fail(`scored ${score}, outside 0 to 1`);
  return score;
}
