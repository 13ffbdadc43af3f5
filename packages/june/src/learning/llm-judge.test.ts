import type { Responder } from "june/chat";
import { evaluate, JudgeResponseError, llmJudge, parseJudgeScore, type EvalCase } from "june/learning";
import { scriptedModel } from "june/testing";
import { describe, expect, test } from "vitest";

const evalCase = (id: string, input: string, reply: string): EvalCase => ({
  id,
  input,
  messages: [
    { role: "user", content: "I ordered a lamp." },
    { role: "assistant", content: "Thanks, noted." },
  ],
  reply,
  metadata: { sessionId: "s", turnId: id, responder: { kind: "custom" }, at: "2024-01-01T00:00:00.000Z" },
});

const responder: Responder = { respond: ({ input }) => ({ result: Promise.resolve({ text: `Candidate for ${input}` }) }) };

/** The text of a scripted model call's prompt, by role. */
function promptText(model: ReturnType<typeof scriptedModel>, call: number, role: "system" | "user"): string {
  const message = model.doStreamCalls[call]!.prompt.find((m) => m.role === role)!;
  return typeof message.content === "string" ? message.content : message.content.map((part) => ("text" in part ? part.text : "")).join("");
}

describe("parseJudgeScore", () => {
  test("reads JSON, labeled scores, bare numbers and fractions", () => {
    expect(parseJudgeScore('{"score": 0.8, "reason": "good"}')).toBe(0.8);
    expect(parseJudgeScore('Sure.\n```json\n{"score": "0.25", "reason": "meh"}\n```')).toBe(0.25);
    expect(parseJudgeScore("Score: 1")).toBe(1);
    expect(parseJudgeScore("score = 4/5 because it is close")).toBe(0.8);
    expect(parseJudgeScore(" 0 ")).toBe(0);
    expect(parseJudgeScore("3/4")).toBe(0.75);
  });

  test("refuses a reply with no score, or one outside 0 to 1", () => {
    expect(() => parseJudgeScore("I like it")).toThrow(JudgeResponseError);
    expect(() => parseJudgeScore("I like it")).toThrow(/has no score/);
    expect(() => parseJudgeScore('{"score": 7}')).toThrow(/scored 7, outside 0 to 1/);
    expect(() => parseJudgeScore("Score: 8/5")).toThrow(/outside/);
  });
});

describe("llmJudge", () => {
  test("asks the model with the rubric, the conversation, the input, the reference and the candidate", async () => {
    const judge = scriptedModel(['{"score": 0.9, "reason": "polite"}', { text: ["Score", ": 0.4"] }]);
    const report = await evaluate(responder, [evalCase("a", "Where is my lamp?", "It ships Monday."), evalCase("b", "Refund?", "Yes.")], {
      scorers: [llmJudge({ model: judge, rubric: "Polite and specific." })],
      concurrency: 1,
    });
    expect(report.cases.map((result) => result.scores.llmJudge)).toEqual([0.9, 0.4]);
    expect(report.stats.llmJudge).toMatchObject({ mean: 0.65, passed: 1 });
    expect(judge.callCount).toBe(2);
    expect(promptText(judge, 0, "system")).toContain("Rubric:\nPolite and specific.");
    const user = promptText(judge, 0, "user");
    expect(user).toContain("user: I ordered a lamp.");
    expect(user).toContain("<input>\nWhere is my lamp?\n</input>");
    expect(user).toContain("It ships Monday.");
    expect(user).toContain("<candidate_reply>\nCandidate for Where is my lamp?\n</candidate_reply>");
  });

  test("reference: false leaves the recorded reply out", async () => {
    const judge = scriptedModel('{"score": 1}');
    await evaluate(responder, [evalCase("a", "q", "SECRET-REFERENCE")], {
      scorers: [llmJudge({ model: judge, rubric: "r", reference: false })],
    });
    expect(promptText(judge, 0, "user")).not.toContain("SECRET-REFERENCE");
  });

  test("a judge reply with no score, or a judge that fails, is that case's error, scored 0", async () => {
    const judge = scriptedModel(["It is fine.", { error: "judge overloaded", errorAt: "start" }]);
    const report = await evaluate(responder, [evalCase("a", "q1", "r"), evalCase("b", "q2", "r")], {
      scorers: { judge: llmJudge({ model: judge, rubric: "r" }) },
      concurrency: 1,
    });
    expect(report.cases[0]!.scores.judge).toBe(0);
    expect(report.cases[0]!.error).toMatchObject({ name: "JudgeResponseError", scorer: "judge" });
    expect(report.cases[1]!.error).toMatchObject({ scorer: "judge", message: expect.stringContaining("judge overloaded") });
    expect(report.failed).toBe(2);
  });

  test("refuses a missing model or rubric", () => {
    expect(() => llmJudge({ rubric: "r" } as never)).toThrow(/model must be a LanguageModel/);
    expect(() => llmJudge({ model: scriptedModel("x"), rubric: " " })).toThrow(/rubric must be a non-empty string/);
  });
});
