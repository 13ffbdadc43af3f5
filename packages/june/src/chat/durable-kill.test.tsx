/**
 * Durable turns across a process that dies: a child process runs a durable agent chat and is killed with
 * SIGKILL while its turn waits for approval (or while the approved tool runs); this process then lists the
 * pending request, resumes the turn and decides it, against a file store, SQLite and PostgreSQL.
 */
import { spawn, type ChildProcessByStdio } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import type { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ChatStore, Turn } from "june/chat";
import { durableChat, SECRET } from "./__fixtures__/durable-chat.js";
import { createS1, openStore, resumeAfterDeath, storedFiles, storedRows } from "./__fixtures__/durable-stores.js";
import { testSchema, type TestSchema } from "../stores/postgres/__fixtures__/postgres-test-db.js";

const packageDir = fileURLToPath(new URL("../..", import.meta.url));
const fixture = fileURLToPath(new URL("./__fixtures__/durable-child.tsx", import.meta.url));
const root = mkdtempSync(join(tmpdir(), "june-durable-kill-"));
const children: ChildProcessByStdio<null, Readable, null>[] = [];
let pg: TestSchema;
beforeAll(async () => {
  pg = await testSchema("durable");
});
afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  rmSync(root, { recursive: true, force: true });
  await pg?.drop();
});

let n = 0;
const lines = (path: string) => (existsSync(path) ? readFileSync(path, "utf8").split("\n").filter(Boolean) : []);

/** Runs the child until it prints `until`, then kills it with SIGKILL and waits for it to die. */
async function runAndKill(args: string[], until: string): Promise<Record<string, string>> {
  const proc = spawn(process.execPath, ["--import", "tsx", fixture, ...args], { cwd: packageDir, stdio: ["ignore", "pipe", "inherit"] });
  children.push(proc);
  const exited = new Promise<void>((resolve) => proc.once("exit", () => resolve()));
  let found: Record<string, string> | undefined;
  for await (const line of createInterface({ input: proc.stdout })) {
    const value = JSON.parse(line) as Record<string, string>;
    if (value.event === "waiting") found = value;
    if (value.event === until) break;
  }
  proc.kill("SIGKILL");
  await exited;
  if (!found) throw new Error(`durable-child ended before printing ${until}`);
  return found;
}

interface Backend {
  kind: "file" | "sqlite" | "postgres";
  /** A fresh place for one test's store. */
  where(): string;
  /** Every stored byte (files) or row (databases) of the store, as text, after the store is closed. */
  everything(where: string): Promise<string>;
}

const backends: Backend[] = [
  { kind: "file", where: () => join(root, `file-${n++}`), everything: async (dir) => storedFiles(dir) },
  {
    kind: "sqlite",
    where: () => {
      const dir = join(root, `sqlite-${n++}`);
      mkdirSync(dir, { recursive: true });
      return join(dir, "chat.db");
    },
    everything: async (path) => storedFiles(join(path, "..")),
  },
  {
    kind: "postgres",
    where: () => pg.another(),
    everything: (schema) => storedRows(pg.pool, schema),
  },
];

async function started(backend: Backend) {
  const where = backend.where();
  await createS1(backend.kind, where);
  return { where, log: join(root, `log-${n++}.log`) };
}

async function drain(turn: Turn): Promise<string> {
  let text = "";
  for await (const event of turn) if (event.type === "text-delta") text += event.text;
  return text;
}

describe.each(backends)("durable turns survive SIGKILL ($kind)", (backend) => {
  it("killed while waiting for approval: a fresh process lists the request with its input, resumes, approves; the tool runs once and finished steps are not asked again", async () => {
    const { where, log } = await started(backend);
    const waiting = await runAndKill([backend.kind, where, "s1", log, "wait"], "waiting");
    expect(lines(log)).toEqual(["model plan", "model work-ask"]);

    const store: ChatStore = await openStore(backend.kind, where);
    try {
      const { chat } = durableChat({ store, log });
      const session = await chat.openSession("s1");
      const [record] = await session.turns();
      expect(record).toMatchObject({ id: waiting.turnId, status: "interrupted", resumable: true });
      expect(await session.pendingApprovals()).toEqual([
        { turnId: waiting.turnId, id: waiting.requestId, stepId: "work", toolName: "deploy", toolCallId: "call-deploy", input: { env: "prod", token: SECRET } },
      ]);
      const turn = await resumeAfterDeath(session, waiting.turnId!);
      expect(turn.requests.map((r) => [r.id, r.retry])).toEqual([[waiting.requestId, undefined]]);
      const streamed = drain(turn);
      expect(turn.approve(waiting.requestId!)).toBe(true);
      const result = await turn.result;
      expect(await streamed).toBe(result.text);
      expect(result.text).toBe('Deployed: "live on prod".');
      expect(lines(log)).toEqual(["model plan", "model work-ask", `deploy prod ${SECRET}`, "model work-answer", "model reply"]);
      expect((await session.turns())[0]).toMatchObject({ status: "completed", text: result.text });
    } finally {
      await store.close?.();
    }
    // No checkpoint, and no byte of the tool's input, once the turn ended.
    const stored = await backend.everything(where);
    expect(stored).toContain("Deployed");
    expect(stored).not.toContain(SECRET);
  });

  it("killed while waiting: deny from a fresh process; the tool never runs", async () => {
    const { where, log } = await started(backend);
    const waiting = await runAndKill([backend.kind, where, "s1", log, "wait"], "waiting");
    const store = await openStore(backend.kind, where);
    try {
      const session = await durableChat({ store, log }).chat.openSession("s1");
      const turn = await resumeAfterDeath(session, waiting.turnId!);
      turn.deny(waiting.requestId!, "not now");
      expect((await turn.result).text).toBe("Not deployed.");
      expect(lines(log).filter((l) => l.startsWith("deploy"))).toEqual([]);
    } finally {
      await store.close?.();
    }
    expect(await backend.everything(where)).not.toContain(SECRET);
  });

  it("killed after approving, while the tool ran (before its result was checkpointed): on resume the call asks again with retry: true and never runs without a new approval", async () => {
    const { where, log } = await started(backend);
    const waiting = await runAndKill([backend.kind, where, "s1", log, "execute"], "executing");
    expect(lines(log).filter((l) => l.startsWith("deploy"))).toHaveLength(1);
    const store = await openStore(backend.kind, where);
    try {
      const session = await durableChat({ store, log }).chat.openSession("s1");
      expect(await session.pendingApprovals()).toEqual([expect.objectContaining({ id: waiting.requestId, retry: true })]);
      const turn = await resumeAfterDeath(session, waiting.turnId!);
      expect(turn.requests).toEqual([expect.objectContaining({ id: waiting.requestId, retry: true })]);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(lines(log).filter((l) => l.startsWith("deploy"))).toHaveLength(1);
      turn.deny(waiting.requestId!, "it may have run already");
      expect((await turn.result).text).toBe("Not deployed.");
      expect(lines(log).filter((l) => l.startsWith("deploy"))).toHaveLength(1);
    } finally {
      await store.close?.();
    }
    expect(await backend.everything(where)).not.toContain(SECRET);
  });
});
