import { describe, expect, it } from "vitest";
import type { ApprovalRequest, ModelCallNode, StepNode, ToolCallNode, TraceNode } from "../../runtime/types.js";
import { projectChatTrace, type ChatTraceModelRow, type ChatTraceRow, type ChatTraceStepRow, type ChatTraceToolRow } from "./project-chat-trace.js";

const MODEL = { provider: "openai.responses", modelId: "gpt-5-mini" };
const SECRET = "sk-proj-AbC123dEf456GhI789jKl012MnO345pQr678";

function step(id: string, partial: Partial<StepNode> = {}): StepNode {
  return { id: `n-${id}`, kind: "step", name: id, status: "running", partialText: "", children: [], ...partial };
}
function model(id: string, partial: Partial<ModelCallNode> = {}): ModelCallNode {
  return { id, kind: "model-call", name: "model", status: "running", model: MODEL, partialText: "", children: [], ...partial };
}
function tool(id: string, toolName: string, input: unknown, partial: Partial<ToolCallNode> = {}): ToolCallNode {
  return { id, kind: "tool-call", name: toolName, status: "running", toolName, toolCallId: `call-${id}`, input, children: [], ...partial };
}
function run(...children: TraceNode[]): TraceNode {
  return { id: "run", kind: "run", name: "run", status: "running", children };
}
function agent(...children: TraceNode[]): TraceNode {
  return { id: "agent", kind: "agent", name: "Agent", status: "running", model: MODEL, children };
}

/** Flattens rows to `kind id title status` lines, indented by depth, for readable assertions. */
function outline(rows: ChatTraceRow[], depth = 0): string[] {
  return rows.flatMap((row) => [`${"  ".repeat(depth)}${row.kind} ${row.id} "${row.title}" ${row.status}`, ...outline(row.children, depth + 1)]);
}

describe("projectChatTrace", () => {
  it("makes steps the top rows wherever they nest, with their model and tool calls in order", () => {
    const tree = run(
      agent(
        step("research", {
          status: "done",
          partialText: "found it",
          result: "found it",
          model: MODEL,
          usage: { inputTokens: 1, outputTokens: 2, totalTokens: 3 },
          children: [
            model("m1", { status: "done", children: [tool("t1", "fetch", { url: "https://a" }, { status: "done", output: "page" })] }),
            model("m2", { status: "done", partialText: "found it" }),
          ],
        }),
        {
          id: "par",
          kind: "parallel",
          name: "Parallel",
          status: "running",
          children: [
            { id: "catch", kind: "catch", name: "Catch", status: "running", children: [step("left", { status: "error", error: { name: "Error", message: "boom" } })] },
            step("right", { children: [model("m3"), tool("t2", "search", { q: "x" })] }),
          ],
        },
      ),
    );
    expect(outline(projectChatTrace(tree, { requests: [] }))).toEqual([
      'step step:n-research "research finished" done',
      '  model model:m1 "gpt-5-mini answered" done',
      '  tool tool:t1 "fetch ran" done',
      '  model model:m2 "gpt-5-mini answered" done',
      'step step:n-left "left failed" error',
      'step step:n-right "Running right" running',
      '  model model:m3 "Calling gpt-5-mini" running',
      '  tool tool:t2 "Calling search" running',
    ]);
    const [research, left] = projectChatTrace(tree);
    expect(research).toMatchObject({ kind: "step", stepId: "research", text: "found it", model: MODEL, usage: { totalTokens: 3 } });
    expect(research.children[1]).toMatchObject({ kind: "tool", toolName: "fetch", input: '{"url":"https://a"}', output: "page" });
    expect(left).toMatchObject({ error: "Error: boom" });
  });

  it("shows an approval row under a waiting tool call only while its request is pending", () => {
    const request: ApprovalRequest = { id: "ap-1", stepId: "reply", toolName: "deploy", toolCallId: "call-t1", input: { env: "prod" } };
    const waiting = run(
      step("reply", {
        children: [model("m1", { status: "done" }), tool("t1", "deploy", { env: "prod" }, { status: "pending", approval: { id: "ap-1", state: "pending" } })],
      }),
    );
    const rows = projectChatTrace(waiting, { requests: [request] });
    expect(outline(rows)).toEqual([
      'step step:n-reply "Running reply" running',
      '  model model:m1 "gpt-5-mini answered" done',
      '  tool tool:t1 "deploy needs approval" pending',
      '    approval approval:ap-1 "Run deploy?" pending',
    ]);
    expect(rows[0].children[1].children[0]).toMatchObject({ kind: "approval", approvalId: "ap-1", toolName: "deploy", input: '{"env":"prod"}' });

    // Withdrawn or decided: the request is gone from `requests`, the approval row goes with it.
    expect(outline(projectChatTrace(waiting, { requests: [] }))).toEqual([
      'step step:n-reply "Running reply" running',
      '  model model:m1 "gpt-5-mini answered" done',
      '  tool tool:t1 "deploy needs approval" pending',
    ]);

    const denied = run(
      step("reply", {
        children: [tool("t1", "deploy", { env: "prod" }, { status: "done", approval: { id: "ap-1", state: "denied", reason: "not prod" } })],
      }),
    );
    const [deniedStep] = projectChatTrace(denied, { requests: [request] });
    expect(deniedStep.children).toHaveLength(1);
    expect(deniedStep.children[0]).toMatchObject({ title: "deploy denied", status: "done", approval: { state: "denied", reason: "not prod" }, children: [] });
  });

  it("keeps row ids stable from one snapshot to the next", () => {
    const first = run(agent(step("draft", { children: [model("m1", { partialText: "He" })] })));
    const second = run(
      agent(
        step("draft", { status: "done", partialText: "Hello", children: [model("m1", { status: "done", partialText: "Hello" })] }),
        step("review", { children: [model("m2")] }),
      ),
    );
    const ids = (rows: ChatTraceRow[]): string[] => rows.flatMap((row) => [row.id, ...ids(row.children)]);
    const a = ids(projectChatTrace(first));
    const b = ids(projectChatTrace(second));
    expect(b.slice(0, a.length)).toEqual(a);
    expect(new Set(b).size).toBe(b.length);
    expect(b).toEqual(["step:n-draft", "model:m1", "step:n-review", "model:m2"]);
  });

  it("never lets a secret in a tool input, output, error or text reach the rows", () => {
    const tree = run(
      step("work", {
        status: "error",
        partialText: `my key is ${SECRET}`,
        error: { name: "APICallError", message: `401 for key ${SECRET}` },
        children: [
          tool("t1", "http", { url: "https://api", headers: { Authorization: "Basic dXNlcjpwYXNz", "x-api-key": "plain" }, apiKey: "plain2", note: SECRET }, {
            status: "done",
            output: { token: "tok-plain", body: `echo ${SECRET}` },
          }),
          tool("t2", "login", { password: "hunter2" }, { status: "error", error: { name: "Error", message: `Bearer abcdefghijklmnop rejected` } }),
        ],
      }),
    );
    const json = JSON.stringify(projectChatTrace(tree));
    for (const secret of [SECRET, "dXNlcjpwYXNz", "plain2", '"plain"', "tok-plain", "hunter2", "abcdefghijklmnop"]) {
      expect(json).not.toContain(secret);
    }
    expect(json).toContain("[redacted]");
    const [row] = projectChatTrace(tree);
    expect(row.title).toBe("work failed");
    expect(row.error).toBe("APICallError: 401 for key [redacted]");
    expect((row.children[1] as ChatTraceToolRow).title).toBe("login failed");
    expect(row.children[1].error).toBe("Error: Bearer [redacted] rejected");
  });

  it("bounds excerpts and text with a marker where cut", () => {
    const big = { items: Array.from({ length: 10_000 }, (_, i) => ({ i, text: "x".repeat(50) })) };
    const tree = run(step("s", { partialText: "y".repeat(5_000), children: [tool("t", "big", big, { status: "done", output: "z".repeat(100_000) })] }));
    const row = projectChatTrace(tree, { maxExcerptChars: 200, maxTextChars: 100 })[0] as ChatTraceStepRow;
    const toolRow = row.children[0] as ChatTraceToolRow;
    expect(toolRow.input.length).toBeLessThanOrEqual(200);
    expect(toolRow.input.endsWith("…")).toBe(true);
    expect(toolRow.output!.length).toBe(200);
    expect(toolRow.output!.endsWith("…")).toBe(true);
    expect(row.text).toHaveLength(100);
    expect(row.text!.endsWith("…")).toBe(true);
    const [defaults] = projectChatTrace(tree);
    expect((defaults.children[0] as ChatTraceToolRow).input.length).toBeLessThanOrEqual(300);
  });

  it("marks canceled rows as errors that say canceled", () => {
    const tree = run(step("s", { status: "canceled", children: [model("m", { status: "canceled" }), tool("t", "fetch", {}, { status: "canceled" })] }));
    expect(outline(projectChatTrace(tree))).toEqual([
      'step step:n-s "s canceled" error',
      '  model model:m "gpt-5-mini canceled" error',
      '  tool tool:t "fetch canceled" error',
    ]);
    expect(projectChatTrace(tree)[0].canceled).toBe(true);
  });

  it("handles inputs that cannot be serialized plainly", () => {
    const cyclic: Record<string, unknown> = { a: 1n };
    cyclic.self = cyclic;
    const tree = run(step("s", { children: [tool("t", "odd", cyclic, { status: "done", output: undefined })] }));
    const toolRow = projectChatTrace(tree)[0].children[0] as ChatTraceToolRow;
    expect(toolRow.input).toBe('{"a":"1","self":"[circular]"}');
    expect(toolRow.output).toBeUndefined();
  });

  it("is pure: the tree is left as it was", () => {
    const tree = run(step("s", { children: [tool("t", "x", { apiKey: "k" })] }));
    const before = JSON.stringify(tree);
    projectChatTrace(tree);
    expect(JSON.stringify(tree)).toBe(before);
  });

  it("makes a model call outside any step (a model chat's) a top row, with its prompt, response and failed attempts", () => {
    const tree = run(
      model("mc1", {
        status: "error",
        startedAt: 10,
        endedAt: 90,
        prompt: [
          { role: "system", text: "Be brief." },
          { role: "user", text: `deploy with ${SECRET}` },
        ],
        promptOmitted: 4,
        response: [{ role: "assistant", text: "Deploying." }],
        attempt: 2,
        failedAttempts: [
          { attempt: 1, startedAt: 10, endedAt: 40, error: { name: "AI_APICallError", message: "Overloaded" } },
          { attempt: 2, startedAt: 45, endedAt: 90, error: { name: "AI_APICallError", message: `Overloaded ${SECRET}` } },
        ],
        error: { name: "AI_RetryError", message: "Failed after 2 attempts. Last error: Overloaded" },
      }),
    );
    const rows = projectChatTrace(tree);
    expect(outline(rows)).toEqual(['model model:mc1 "gpt-5-mini failed" error']);
    const row = rows[0] as ChatTraceModelRow;
    expect(row.prompt).toEqual([
      { role: "system", text: "Be brief." },
      { role: "user", text: "deploy with [redacted]" },
    ]);
    expect(row.promptOmitted).toBe(4);
    expect(row.response).toEqual([{ role: "assistant", text: "Deploying." }]);
    expect(row.attempt).toBe(2);
    expect(row.failedAttempts).toEqual([
      { attempt: 1, startedAt: 10, endedAt: 40, error: "AI_APICallError: Overloaded" },
      { attempt: 2, startedAt: 45, endedAt: 90, error: "AI_APICallError: Overloaded [redacted]" },
    ]);
    expect(JSON.stringify(rows)).not.toContain(SECRET);
  });
});
