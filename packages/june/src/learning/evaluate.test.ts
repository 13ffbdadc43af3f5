import type { ModelMessage } from "ai";
import { createChat, type Responder, type TurnEvent } from "june/chat";
import {
  evaluate,
  exactMatch,
  includes,
  jsonMatch,
  regex,
  type EvalCase,
  type EvalCaseResult,
  type Scorer,
} from "june/learning";
import { describe, expect, test } from "vitest";

function evalCase(id: string, input: string, reply: string, messages: ModelMessage[] = []): EvalCase {
  return { id, input, messages, reply, metadata: { sessionId: "s", turnId: id, responder: { kind: "custom" }, at: "2024-01-01T00:00:00.000Z" } };
}

/** Answers with `answer(input)`, recording what it was called with. */
function scripted(answer: (input: string) => string | Promise<string>, extra: Partial<Responder> = {}) {
  const calls: { input: string; messages: ModelMessage[]; signal: AbortSignal; turnId: string; sessionId: string }[] = [];
  const responder: Responder = {
    id: "scripted",
    version: "2",
    ...extra,
    respond(options) {
      calls.push(options);
      return {
        result: Promise.resolve(answer(options.input)).then((text) => ({
          text,
          metadata: { usage: { inputTokens: 4, outputTokens: 1, totalTokens: 5 }, model: { provider: "p", modelId: "m" }, secret: "dropped" },
        })),
      };
    },
  };
  return { responder, calls };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("evaluate", () => {
  test("answers each input after its messages, and reports replies, scores, usage and time", async () => {
    const history: ModelMessage[] = [
      { role: "user", content: "hi" },
      { role: "assistant", content: "hello" },
    ];
    const cases = [evalCase("a", "capital of France?", "Paris", history), evalCase("b", "2+2?", "4")];
    const { responder, calls } = scripted((input) => (input.startsWith("capital") ? " Paris\n" : "five"));
    const report = await evaluate(responder, cases, { scorers: [exactMatch()] });

    expect(calls.map((call) => [call.input, call.messages])).toEqual([
      ["capital of France?", history],
      ["2+2?", []],
    ]);
    expect(calls[0]!.signal).toBeInstanceOf(AbortSignal);
    expect(new Set(calls.map((call) => call.turnId)).size).toBe(2);
    expect(report.responder).toEqual({ kind: "custom", id: "scripted", version: "2" });
    expect(report.cases).toEqual([
      { id: "a", input: "capital of France?", reply: " Paris\n", scores: { exactMatch: 1 }, usage: { inputTokens: 4, outputTokens: 1, totalTokens: 5 }, model: { provider: "p", modelId: "m" }, timeMs: expect.any(Number) },
      { id: "b", input: "2+2?", reply: "five", scores: { exactMatch: 0 }, usage: { inputTokens: 4, outputTokens: 1, totalTokens: 5 }, model: { provider: "p", modelId: "m" }, timeMs: expect.any(Number) },
    ]);
    expect(report.stats).toEqual({ exactMatch: { mean: 0.5, min: 0, max: 1, passed: 1, count: 2, threshold: 0.5 } });
    expect(report.failed).toBe(0);
    expect(report.cases[0]!.timeMs).toBeGreaterThanOrEqual(0);
    expect(JSON.parse(JSON.stringify(report))).toEqual(report);
  });

  test("takes a Chat and uses its responder, journaling nothing", async () => {
    const { responder } = scripted(() => "ok");
    const chat = createChat({ responder });
    const report = await evaluate(chat, [evalCase("a", "x", "ok")], { scorers: { exact: exactMatch() } });
    expect(report.stats.exact!.mean).toBe(1);
    expect(await chat.listSessions()).toEqual([]);
  });

  test("each built-in scorer, a custom one, and thresholds per scorer", async () => {
    const replies: Record<string, string> = {
      json: '```json\n{"name":"Ada","age":36,"city":"London"}\n```',
      text: "The refund arrives within 30 days.",
      date: "2024-05-01",
    };
    const cases = [
      evalCase("json", "json", '{"name":"Ada","age":37,"city":"London"}'),
      evalCase("text", "text", "The refund arrives within 30 days."),
      evalCase("date", "date", "2024-05-01"),
    ];
    const { responder } = scripted((input) => replies[input]!);
    const length: Scorer = (_c, reply) => Math.min(1, reply.length / 20);
    const report = await evaluate(responder, cases, {
      scorers: {
        exact: exactMatch(),
        refund: includes(["refund", "30 days", "by mail"], { ignoreCase: true }),
        date: regex("/^\\d{4}-\\d{2}-\\d{2}$/"),
        length,
      },
      threshold: { refund: 0.6, length: 1 },
    });
    const scores = Object.fromEntries(report.cases.map((result) => [result.id, result.scores]));
    expect(scores.text).toEqual({ exact: 1, refund: 2 / 3, date: 0, length: 1 });
    expect(scores.date).toEqual({ exact: 1, refund: 0, date: 1, length: 0.5 });
    expect(scores.json!.exact).toBe(0);
    expect(report.stats.refund).toMatchObject({ threshold: 0.6, passed: 1 });
    expect(report.stats.length).toMatchObject({ threshold: 1, passed: 2, min: 0.5, max: 1 });
    expect(report.stats.date!.threshold).toBe(0.5);

    const json = await evaluate(responder, cases.slice(0, 1), { scorers: [jsonMatch(), jsonMatch({ expected: { name: "Ada" } })] });
    // Two of the three recorded fields match; the second scorer (named jsonMatch#2) only wants the name.
    expect(json.cases[0]!.scores).toEqual({ jsonMatch: 2 / 3, "jsonMatch#2": 1 });
  });

  test("a failing responder, a throwing scorer and a score out of range are kept per case, scored 0", async () => {
    const { responder } = scripted((input) => {
      if (input === "boom") throw new Error("upstream down, key sk-proj-0123456789abcdefghijklmn");
      return "fine";
    });
    const cases = [evalCase("ok", "hi", "fine"), evalCase("bad", "boom", "fine"), evalCase("range", "range", "fine")];
    const report = await evaluate(responder, cases, {
      scorers: {
        exact: exactMatch(),
        picky: (c) => {
          if (c.id === "ok") throw new TypeError("cannot score this");
          return c.id === "range" ? 1.5 : 1;
        },
      },
    });
    const [ok, bad, range] = report.cases as [EvalCaseResult, EvalCaseResult, EvalCaseResult];
    expect(ok.scores).toEqual({ exact: 1, picky: 0 });
    expect(ok.error).toEqual({ name: "TypeError", message: "cannot score this", scorer: "picky" });
    expect(bad.reply).toBeUndefined();
    expect(bad.scores).toEqual({ exact: 0, picky: 0 });
    expect(bad.error).toEqual({ name: "Error", message: "upstream down, key [redacted]" });
    expect(range.error).toMatchObject({ name: "ScorerError", scorer: "picky", message: expect.stringContaining("gave 1.5") });
    expect(report.failed).toBe(3);
    expect(report.stats.exact).toMatchObject({ mean: 2 / 3, passed: 2 });
  });

  test("runs at most `concurrency` cases at once, and keeps the given order in the report", async () => {
    for (const concurrency of [1, 3]) {
      let active = 0;
      let most = 0;
      const ended: string[] = [];
      const { responder } = scripted(async (input) => {
        active++;
        most = Math.max(most, active);
        // Later cases finish sooner, so the report's order is not the order they ended in.
        await sleep(2 * (10 - Number(input)));
        active--;
        ended.push(input);
        return input;
      });
      const cases = Array.from({ length: 7 }, (_, i) => evalCase(`c${i}`, String(i), String(i)));
      const seen: number[] = [];
      const report = await evaluate(responder, cases, {
        scorers: [exactMatch()],
        concurrency,
        onResult: (_result, done, total) => {
          expect(total).toBe(7);
          seen.push(done);
        },
      });
      expect(most).toBe(concurrency);
      expect(report.cases.map((result) => result.id)).toEqual(cases.map((c) => c.id));
      expect(report.stats.exactMatch!.mean).toBe(1);
      expect(seen).toEqual([1, 2, 3, 4, 5, 6, 7]);
      if (concurrency === 3) expect(ended).not.toEqual(cases.map((c) => c.input));
    }
  });

  test("reads the responder's events and denies approvals (or approves them when told)", async () => {
    const decisions: string[] = [];
    const responder: Responder = {
      respond() {
        let decided!: () => void;
        const gate = new Promise<void>((resolve) => (decided = resolve));
        async function* events(): AsyncGenerator<TurnEvent> {
          yield { type: "text-delta", text: "asking" };
          yield { type: "approval-request", request: { id: "r1", stepId: "s", toolName: "deploy", toolCallId: "c1", input: {} } };
        }
        return {
          events: events(),
          result: gate.then(() => ({ text: decisions.at(-1)! })),
          decide: (id, decision) => (
            decisions.push(decision.approved ? `approved ${id}` : `denied ${id}: ${decision.reason}`), decided(), { kind: "decided" as const }
          ),
        };
      },
    };
    const denied = await evaluate(responder, [evalCase("a", "go", "")], { scorers: [includes("denied")] });
    expect(denied.cases[0]!.reply).toBe("denied r1: no one to approve (eval)");
    const approved = await evaluate(responder, [evalCase("a", "go", "")], { scorers: [includes("approved")], approvals: "approve" });
    expect(approved.cases[0]!.scores.includes).toBe(1);
  });

  test("a case past timeoutMs fails with a TimeoutError and its signal aborts", async () => {
    const signals: AbortSignal[] = [];
    const responder: Responder = {
      respond({ signal }) {
        signals.push(signal);
        return { result: new Promise(() => {}) };
      },
    };
    const report = await evaluate(responder, [evalCase("slow", "x", "y")], { scorers: [exactMatch()], timeoutMs: 30 });
    expect(report.cases[0]!.error).toMatchObject({ name: "TimeoutError", message: expect.stringContaining("30 ms") });
    expect(signals[0]!.aborted).toBe(true);
  });

  test("canceling with a signal aborts the cases in flight and rejects with CanceledError", async () => {
    const controller = new AbortController();
    const signals: AbortSignal[] = [];
    const responder: Responder = {
      respond({ signal }) {
        signals.push(signal);
        if (signals.length === 2) setTimeout(() => controller.abort(), 5);
        return { result: new Promise(() => {}) };
      },
    };
    const cases = Array.from({ length: 5 }, (_, i) => evalCase(`c${i}`, "x", "y"));
    await expect(evaluate(responder, cases, { scorers: [exactMatch()], concurrency: 2, signal: controller.signal })).rejects.toMatchObject({
      name: "CanceledError",
    });
    expect(signals).toHaveLength(2);
    expect(signals.every((signal) => signal.aborted)).toBe(true);
  });

  test("takes an async iterable of cases; refuses bad targets, options and cases", async () => {
    const { responder } = scripted(() => "x");
    async function* cases() {
      yield evalCase("a", "1", "x");
      yield evalCase("b", "2", "y");
    }
    expect((await evaluate(responder, cases(), { scorers: [exactMatch()] })).stats.exactMatch!.mean).toBe(0.5);

    const one = [evalCase("a", "1", "x")];
    await expect(evaluate({} as never, one, { scorers: [exactMatch()] })).rejects.toThrow(/Chat or a Responder/);
    await expect(evaluate(responder, one, { scorers: [] })).rejects.toThrow(/at least one scorer/);
    await expect(evaluate(responder, one, { scorers: { x: 5 as never } })).rejects.toThrow(/scorer "x" is not a function/);
    await expect(evaluate(responder, one, { scorers: [exactMatch()], concurrency: 0 })).rejects.toThrow(/concurrency/);
    await expect(evaluate(responder, one, { scorers: [exactMatch()], threshold: 2 })).rejects.toThrow(/threshold/);
    await expect(evaluate(responder, [...one, ...one], { scorers: [exactMatch()] })).rejects.toThrow(/"a" is used twice/);
    await expect(evaluate(responder, [{ id: "a" } as never], { scorers: [exactMatch()] })).rejects.toMatchObject({
      name: "EvalCaseFormatError",
      message: expect.stringContaining(`"input" must be a string`),
    });
  });

  test("no cases: an empty report", async () => {
    const report = await evaluate(scripted(() => "x").responder, [], { scorers: [exactMatch()] });
    expect(report.cases).toEqual([]);
    expect(report.stats.exactMatch).toEqual({ mean: 0, min: 0, max: 0, passed: 0, count: 0, threshold: 0.5 });
  });
});
