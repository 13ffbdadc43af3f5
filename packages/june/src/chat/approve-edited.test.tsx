import { mkdtempSync, readFileSync, rmSync, existsSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ModelMessage } from "ai";
import { afterAll, describe, expect, it } from "vitest";
import { ToolInputInvalidError, type ToolCallNode, type TraceNode } from "june";
import { fileStore, projectChatTrace, TurnSuspendedError, type Turn } from "june/chat";
import { findNodes } from "../testing/index.js";
import { durableChat, SECRET } from "./__fixtures__/durable-chat.js";

const root = mkdtempSync(join(tmpdir(), "june-approve-edited-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const fresh = () => join(root, `d${n++}`);
const lines = (path: string) => (existsSync(path) ? readFileSync(path, "utf8").split("\n").filter(Boolean) : []);
const EDITED_TOKEN = "tok-edited-4b1f9a77";

async function firstRequest(turn: Turn) {
  for await (const event of turn) if (event.type === "approval-request") return event.request;
  throw new Error("the turn ended without asking");
}

/** The tool-call parts the model was sent in a call's prompt. */
function toolCallsSent(prompt: readonly ModelMessage[]): { toolCallId: string; input: unknown }[] {
  return prompt.flatMap((message) =>
    message.role === "assistant" && Array.isArray(message.content)
      ? message.content.filter((part) => part.type === "tool-call").map((part) => ({ toolCallId: part.toolCallId, input: part.input }))
      : [],
  );
}

function lastTree(turn: Turn): Promise<TraceNode | undefined> {
  return (async () => {
    let tree: TraceNode | undefined;
    for await (const event of turn) if (event.type === "run-update") tree = event.tree as TraceNode;
    return tree;
  })();
}

describe("approve with an edited input", () => {
  it("runs the tool once with the edited input; the model's next call sees it; the journal says edited, never the input", async () => {
    const dir = fresh();
    const log = join(dir, "calls.log");
    const store = fileStore(join(dir, "chat"));
    const { chat, model } = durableChat({ store, log, durable: { suspendAfterMs: Infinity }, unstreamed: true });
    const session = await chat.createSession({ id: "s1" });
    const turn = session.send("ship the docs");
    const request = await firstRequest(turn);
    expect(request.input).toEqual({ env: "prod", token: SECRET });

    expect(await turn.approve(request.id, { input: { env: "staging", token: EDITED_TOKEN } })).toBe(true);
    const { text } = await turn.result;
    expect(text).toBe('Deployed: "live on staging".');
    // Once, with the edited input.
    expect(lines(log)).toEqual(["model plan", "model work-ask", `deploy staging ${EDITED_TOKEN}`, "model work-answer", "model reply"]);

    // The model's next call sees the call as it ran.
    // The "work" step's answer call (the "reply" step's call is the last).
    const answerPrompt = model.doStreamCalls.at(-2)!.prompt as unknown as ModelMessage[];
    expect(toolCallsSent(answerPrompt)).toEqual([{ toolCallId: "call-deploy", input: { env: "staging", token: EDITED_TOKEN } }]);
    expect(JSON.stringify(answerPrompt)).not.toContain(SECRET);

    // The journal: decided, edited; no input, neither the model's nor the edited one.
    const entries = await store.read("s1");
    const approval = entries.find((entry) => entry.type === "approval");
    expect(approval).toEqual(expect.objectContaining({ type: "approval", requestId: request.id, toolName: "deploy", approved: true, edited: true }));
    expect(approval).not.toHaveProperty("input");
    expect(JSON.stringify(entries)).not.toContain(EDITED_TOKEN);
    expect(JSON.stringify(entries)).not.toContain(SECRET);

    // The trace: the call shows the input it ran with, and its row says it was edited.
    const tree = await lastTree(turn);
    const [call] = findNodes(tree!, "tool-call") as ToolCallNode[];
    expect(call).toMatchObject({ input: { env: "staging", token: EDITED_TOKEN }, approval: { state: "approved", edited: true } });
    const row = projectChatTrace(tree!).flatMap(function flat(r): typeof r[] {
      return [r, ...(r.children ?? []).flatMap(flat)];
    }).find((r) => r.kind === "tool");
    expect(row?.title).toContain("edited by you");
    expect(JSON.stringify(row)).not.toContain(EDITED_TOKEN.slice(4));
  });

  it("refuses an edit the tool's schema does not take: a clear error, the request stays pending, nothing runs", async () => {
    const dir = fresh();
    const log = join(dir, "calls.log");
    const store = fileStore(join(dir, "chat"));
    const { chat } = durableChat({ store, log, durable: { suspendAfterMs: Infinity }, unstreamed: true });
    const session = await chat.createSession({ id: "s1" });
    const turn = session.send("ship the docs");
    const request = await firstRequest(turn);

    await expect(turn.approve(request.id, { input: { env: 5, token: "x" } })).rejects.toThrow(ToolInputInvalidError);
    await expect(turn.approve(request.id, { input: { env: 5, token: "x" } })).rejects.toThrow(/input\.env must be string.*still pending/);
    await expect(turn.control({ type: "approve", approvalId: request.id, input: { env: "staging" } })).rejects.toThrow(/must have required property 'token'/);
    expect(turn.requests.map((r) => r.id)).toEqual([request.id]);
    expect(turn.status).toBe("running");
    expect(lines(log)).toEqual(["model plan", "model work-ask"]);
    expect((await store.read("s1")).some((entry) => entry.type === "approval")).toBe(false);

    // Still pending: a plain approval runs the model's call, once.
    await turn.control({ type: "approve", approvalId: request.id });
    await turn.result;
    expect(lines(log)).toEqual(["model plan", "model work-ask", `deploy prod ${SECRET}`, "model work-answer", "model reply"]);
  });

  it("a suspended durable turn resumes and runs with the edited input, kept encrypted in its checkpoint", async () => {
    const dir = fresh();
    const log = join(dir, "calls.log");
    const key = "a".repeat(64);
    const store = fileStore(join(dir, "chat"));
    const one = durableChat({ store, log, durable: { suspendAfterMs: 30, encryptionKey: key } });
    const session = await one.chat.createSession({ id: "s1" });
    const turn = session.send("ship the docs");
    const request = await firstRequest(turn);
    await expect(turn.result).rejects.toBeInstanceOf(TurnSuspendedError);

    // Another chat over the same store resumes it and approves with an edit; the checkpoint is written before the
    // call executes, with the edited input in it, and holds it encrypted.
    let storedWhileRunning = "";
    const two = durableChat({
      store,
      log,
      durable: { suspendAfterMs: 30, encryptionKey: key },
      onExecute: () => {
        storedWhileRunning = everything(join(dir, "chat"));
      },
    });
    const resumed = await (await two.chat.openSession("s1")).resume(turn.id);
    expect(resumed.requests.map((r) => r.id)).toEqual([request.id]);
    await resumed.control({ type: "approve", approvalId: request.id, input: { env: "staging", token: EDITED_TOKEN } });
    expect((await resumed.result).text).toContain("live on staging");
    expect(lines(log)).toEqual(["model plan", "model work-ask", `deploy staging ${EDITED_TOKEN}`, "model work-answer", "model reply"]);
    expect(storedWhileRunning).toContain("june-aes-256-gcm:v1:");
    expect(storedWhileRunning).not.toContain(EDITED_TOKEN);
    expect(everything(join(dir, "chat"))).not.toContain(EDITED_TOKEN);
    // The "work" step's answer call (the "reply" step's call is the last).
    const answerPrompt = two.model.doStreamCalls.at(-2)!.prompt as unknown as ModelMessage[];
    expect(toolCallsSent(answerPrompt)).toEqual([{ toolCallId: "call-deploy", input: { env: "staging", token: EDITED_TOKEN } }]);
  });
});

function everything(dir: string): string {
  let out = "";
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) out += readFileSync(join(entry.parentPath, entry.name), "utf8");
  }
  return out;
}
