import { APICallError } from "@ai-sdk/provider";
import { describe, expect, test } from "vitest";
import { scriptedModel } from "../../../testing/scripted-model.js";
import { createChat } from "../../create-chat.js";
import { projectChatTrace, type ChatTraceModelRow, type ChatTraceRow } from "../../trace/project-chat-trace.js";
import type { ModelCallNode, RunNode, TraceNode } from "../../../runtime/types.js";
import type { Turn } from "../../types.js";
import { modelResponder } from "./model-responder.js";

/** Every snapshot of a turn's trace, and its rows projected, in order. */
async function snapshots(turn: Turn): Promise<{ trees: TraceNode[]; rows: ChatTraceRow[][] }> {
  const trees: TraceNode[] = [];
  for await (const event of turn) if (event.type === "run-update") trees.push(event.tree as TraceNode);
  return { trees, rows: trees.map((tree) => projectChatTrace(tree)) };
}

/** A 529 the AI SDK retries at once (`retry-after-ms`), so a test does not wait out its backoff. */
function overloaded(): APICallError {
  return new APICallError({
    message: "Overloaded",
    url: "http://model.test/v1/chat",
    requestBodyValues: {},
    statusCode: 529,
    responseHeaders: { "retry-after-ms": "5" },
    isRetryable: true,
  });
}

describe("a model chat's trace", () => {
  test("each turn's model call is a row: model, prompt and response excerpts, tokens and timings", async () => {
    const model = scriptedModel([{ text: ["Hel", "lo"], usage: { inputTokens: 7, outputTokens: 2 } }], { provider: "acme.chat", modelId: "acme-1" });
    const chat = createChat({ responder: modelResponder({ model, instructions: "Be brief." }) });
    const session = await chat.createSession();
    const turn = session.send("Say hello");
    const { trees, rows } = await snapshots(turn);
    await turn.result;
    // A few snapshots (the call starts, the call ends), not one per delta.
    expect(trees.length).toBe(2);
    const first = rows[0]![0] as ChatTraceModelRow;
    expect(first).toMatchObject({ kind: "model", status: "running", model: { provider: "acme.chat", modelId: "acme-1" } });
    expect(first.prompt).toEqual([
      { role: "system", text: "Be brief." },
      { role: "user", text: "Say hello" },
    ]);
    const last = rows.at(-1)!;
    expect(last).toHaveLength(1);
    const row = last[0] as ChatTraceModelRow;
    expect(row).toMatchObject({ kind: "model", status: "done", usage: { inputTokens: 7, outputTokens: 2, totalTokens: 9 }, finishReason: "stop" });
    expect(row.response).toEqual([{ role: "assistant", text: "Hello" }]);
    expect(row.endedAt! >= row.startedAt!).toBe(true);
    expect(row.id).toBe(first.id);
    expect((trees.at(-1) as RunNode).status).toBe("done");
  });

  test("the prompt keeps the last messages, bounded and redacted, and says how many it left out", async () => {
    const model = scriptedModel(() => "ok");
    const session = await createChat({ model }).createSession();
    for (let i = 0; i < 4; i++) {
      await session.send(`question ${i} ${"x".repeat(2_000)}`).result;
    }
    const turn = session.send("my key is sk-proj-ABCDEFGHIJ0123456789xyz, keep it safe");
    const { trees, rows } = await snapshots(turn);
    await turn.result;
    const call = (trees.at(-1) as RunNode).children[0] as ModelCallNode;
    // 4 earlier turns (8 messages) and the input: the last 4 are kept.
    expect(call.prompt).toHaveLength(4);
    expect(call.promptOmitted).toBe(5);
    for (const message of call.prompt!) expect(message.text.length).toBeLessThanOrEqual(300);
    const row = rows.at(-1)![0] as ChatTraceModelRow;
    expect(row.promptOmitted).toBe(5);
    expect(row.prompt!.at(-1)!.text).not.toContain("sk-proj-ABCDEFGHIJ0123456789xyz");
    expect(row.prompt!.at(-1)!.text).toContain("[redacted]");
  });

  test("a request the AI SDK retries shows as it fails, then the call goes on", async () => {
    let calls = 0;
    const model = scriptedModel(() => (calls++ === 0 ? { error: overloaded(), errorAt: "start" } : "Second try."));
    const session = await createChat({ model }).createSession();
    const turn = session.send("hi");
    const { rows } = await snapshots(turn);
    expect((await turn.result).text).toBe("Second try.");
    const models = rows.map((snapshot) => snapshot[0] as ChatTraceModelRow);
    // Running; attempt 1 failed; attempt 2 under way; done.
    expect(models.map((row) => [row.status, row.attempt ?? 1, row.failedAttempts?.length ?? 0])).toEqual([
      ["running", 1, 0],
      ["running", 1, 1],
      ["running", 2, 1],
      ["done", 2, 1],
    ]);
    const failure = models.at(-1)!.failedAttempts![0]!;
    expect(failure).toMatchObject({ attempt: 1, error: "AI_APICallError: Overloaded" });
    expect(failure.endedAt >= failure.startedAt).toBe(true);
  });

  test("a call that fails after its retries ends its row failed, before the turn fails", async () => {
    const model = scriptedModel(() => ({ error: overloaded(), errorAt: "start" }));
    const session = await createChat({ responder: modelResponder({ model, maxRetries: 1 }) }).createSession();
    const turn = session.send("hi");
    const seen = snapshots(turn);
    await expect(turn.result).rejects.toThrow(/Failed after 2 attempts/);
    const { rows } = await seen;
    const row = rows.at(-1)![0] as ChatTraceModelRow;
    expect(row.status).toBe("error");
    expect(row.error).toMatch(/^AI_RetryError: Failed after 2 attempts/);
    expect(row.failedAttempts!.map((failure) => failure.attempt)).toEqual([1, 2]);
  });

  test("a steered turn has a row per call; a canceled one ends its row canceled", async () => {
    const model = scriptedModel([{ text: ["a", "b", "c", "d"], delay: 25 }, "X"]);
    const session = await createChat({ model }).createSession();
    const turn = session.send("go");
    let last: ChatTraceRow[] = [];
    let texts = 0;
    for await (const event of turn) {
      if (event.type === "run-update") last = projectChatTrace(event.tree);
      if (event.type === "text-delta" && ++texts === 2) await turn.steer("more");
    }
    await turn.result;
    expect(last.map((row) => [row.kind, row.status])).toEqual([
      ["model", "done"],
      ["model", "done"],
    ]);
    expect((last[0] as ChatTraceModelRow).finishReason).toBe("interrupted");
    expect((last[1] as ChatTraceModelRow).prompt!.at(-1)).toEqual({ role: "user", text: "more" });

    const slow = scriptedModel([{ text: ["a", "b", "c"], delay: 50 }]);
    const other = await createChat({ model: slow }).createSession();
    const canceled = other.send("go");
    const rows = snapshots(canceled);
    await new Promise((resolve) => setTimeout(resolve, 20));
    canceled.cancel();
    await canceled.result.catch(() => {});
    const final = (await rows).rows.at(-1)!;
    expect(final[0]).toMatchObject({ kind: "model", status: "error", canceled: true });
  });
});
