import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { memoryStore, type Turn } from "june/chat";
import { parseTurnStreamEvent, turnStream } from "june/stream";
import { createS1, openStore, resumeAfterDeath, storedFiles } from "../chat/__fixtures__/durable-stores.js";
import { askChat, QUESTION } from "./__fixtures__/ask-chat.js";

const packageDir = fileURLToPath(new URL("../..", import.meta.url));
const child = fileURLToPath(new URL("./__fixtures__/ask-child.tsx", import.meta.url));
const root = mkdtempSync(join(tmpdir(), "june-ask-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const lines = (path: string) => (existsSync(path) ? readFileSync(path, "utf8").split("\n").filter(Boolean) : []);
const ANSWER = "staging-7f3a";

async function firstQuestion(turn: Turn) {
  for await (const event of turn) if (event.type === "input-request") return event.request;
  throw new Error("the turn ended without asking");
}

describe("<AskUser />", () => {
  it("asks with an input-request; turn.answer resumes the turn and the model gets the answer as the tool result; the journal keeps only that it was answered", async () => {
    const store = memoryStore();
    const { chat, model } = askChat({ store });
    const session = await chat.createSession();
    const turn = session.send("ship the docs");
    const streamed: string[] = [];
    const reading = (async () => {
      for await (const { event } of turnStream(turn)) {
        streamed.push(parseTurnStreamEvent(JSON.parse(JSON.stringify(event))).type);
        if (event.type === "input-request") {
          expect(event.request).toEqual({ id: expect.any(String), question: QUESTION });
          // A question is answered, not approved.
          expect(turn.approve(event.request.id)).toBe(false);
          expect(turn.answer(event.request.id, ANSWER)).toBe(true);
          expect(turn.answer(event.request.id, ANSWER)).toBe(false);
        }
      }
    })();
    const result = await turn.result;
    await reading;
    expect(result.text).toBe(`Deploying to "${ANSWER}".`);
    expect(streamed).toContain("input-request");
    expect(streamed).not.toContain("approval-request");
    expect(JSON.stringify(model.doStreamCalls[1]!.prompt)).toContain(ANSWER);
    const entries = await store.read(session.id);
    expect(entries.filter((e) => e.type === "approval")).toMatchObject([{ toolName: "ask_user", approved: true, reason: "question answered" }]);
    expect(JSON.stringify(entries.filter((e) => e.type !== "turn-end"))).not.toContain(ANSWER);
  });

  it("cancel withdraws the question: nothing waits, the turn ends canceled", async () => {
    const { chat } = askChat({ store: memoryStore() });
    const session = await chat.createSession();
    const turn = session.send("ship");
    const question = await firstQuestion(turn);
    expect(turn.requests.map((r) => r.question)).toEqual([QUESTION]);
    turn.cancel();
    await expect(turn.result).rejects.toThrow(/canceled/);
    expect(turn.status).toBe("canceled");
    expect(turn.answer(question.id, "late")).toBe(false);
  });

  it("turn.control({ type: 'answer' }) with no value is a clear error and the question stays pending", async () => {
    const { chat } = askChat({ store: memoryStore() });
    const session = await chat.createSession();
    const turn = session.send("ship");
    const question = await firstQuestion(turn);
    await expect(turn.control({ type: "answer", requestId: question.id, value: undefined })).rejects.toThrow(/value must be a string or a JSON value/);
    expect(turn.requests.map((r) => r.id)).toEqual([question.id]);
    await turn.control({ type: "answer", requestId: question.id, value: { env: "dev" } });
    expect((await turn.result).text).toContain('{"env":"dev"}');
  });

  it("a durable turn's question survives kill -9 and is answered from another process", async () => {
    const where = join(root, "file-store");
    const log = join(root, "ask.log");
    await createS1("file", where);
    const proc = spawn(process.execPath, ["--import", "tsx", child, "file", where, "s1", log], { cwd: packageDir, stdio: ["ignore", "pipe", "inherit"] });
    const exited = new Promise<void>((resolve) => proc.once("exit", () => resolve()));
    let asking: { turnId: string; requestId: string } | undefined;
    for await (const line of createInterface({ input: proc.stdout })) {
      asking = JSON.parse(line) as { turnId: string; requestId: string };
      break;
    }
    proc.kill("SIGKILL");
    await exited;
    expect(asking).toBeDefined();
    expect(lines(log)).toEqual(["model ask"]);

    const store = await openStore("file", where);
    try {
      const { chat } = askChat({ store, log, durable: { suspendAfterMs: Infinity } });
      const session = await chat.openSession("s1");
      expect(await session.pendingApprovals()).toEqual([expect.objectContaining({ id: asking!.requestId, toolName: "ask_user", input: { question: QUESTION } })]);
      const turn = await resumeAfterDeath(session, asking!.turnId);
      expect(turn.requests.map((r) => r.question)).toEqual([QUESTION]);
      const draining = (async () => {
        for await (const _ of turn) void _;
      })();
      expect(turn.answer(asking!.requestId, ANSWER)).toBe(true);
      const result = await turn.result;
      await draining;
      expect(result.text).toContain(`Deploying to "${ANSWER}".`);
      expect(lines(log)).toEqual(["model ask", "model answer"]);
    } finally {
      await store.close?.();
    }
    // Once the turn ended, the answer stays only in the reply the workflow wrote: no checkpoint keeps it.
    const stored = storedFiles(where);
    expect(stored.split(ANSWER).length - 1).toBe(1);
  });
});
