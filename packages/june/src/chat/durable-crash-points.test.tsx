/**
 * Durable turns killed at the two moments where a person's click could be lost or doubled, in child processes
 * killed with SIGKILL, over a file store and PostgreSQL:
 * - right after the turn's reader heard an `approval-request` (at that exact point, and a seeded few event-loop
 *   turns later): the request the person saw is the one still pending in another process, with its id;
 * - after an approved tool returned, during the model call that follows: the finished tool is neither asked
 *   for again nor run again.
 * Every model call and tool run is logged to a file, so runs are counted against approvals across processes.
 */
import { spawn, type ChildProcessByStdio } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import type { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ChatStore, Session } from "june/chat";
import { durableChat, SECRET } from "./__fixtures__/durable-chat.js";
import { createS1, openStore, resumeAfterDeath, storedFiles, storedRows } from "./__fixtures__/durable-stores.js";
import { testSchema, type TestSchema } from "../stores/postgres/__fixtures__/postgres-test-db.js";
import { seededRandom } from "../testing/__fixtures__/seeded-random.js";

const packageDir = fileURLToPath(new URL("../..", import.meta.url));
const fixture = fileURLToPath(new URL("./__fixtures__/durable-child.tsx", import.meta.url));
const root = mkdtempSync(join(tmpdir(), "june-durable-points-"));
const children: ChildProcessByStdio<null, Readable, null>[] = [];
let pg: TestSchema;
beforeAll(async () => {
  pg = await testSchema("durable_points");
});
afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  rmSync(root, { recursive: true, force: true });
  await pg?.drop();
});

/** A child process starts through tsx and a killed one's PostgreSQL lease runs out: slow on a busy machine. */
const TIMEOUT_MS = 60_000;
let n = 0;
const lines = (path: string) => (existsSync(path) ? readFileSync(path, "utf8").split("\n").filter(Boolean) : []);
const deploys = (log: string) => lines(log).filter((line) => line.startsWith("deploy"));

/** Runs the child until it prints `until`, kills it with SIGKILL, waits for it to die; every event it printed, by name. */
async function runAndKill(args: string[], until: string): Promise<Record<string, Record<string, string>>> {
  const proc = spawn(process.execPath, ["--import", "tsx", fixture, ...args], { cwd: packageDir, stdio: ["ignore", "pipe", "inherit"] });
  children.push(proc);
  const exited = new Promise<void>((resolve) => proc.once("exit", () => resolve()));
  const events: Record<string, Record<string, string>> = {};
  for await (const line of createInterface({ input: proc.stdout })) {
    const value = JSON.parse(line) as Record<string, string>;
    events[value.event!] = value;
    if (value.event === until) break;
  }
  proc.kill("SIGKILL");
  await exited;
  if (!events[until]) throw new Error(`durable-child ended before printing ${until}`);
  expect(proc.signalCode, "the child was killed, it did not end on its own").toBe("SIGKILL");
  return events;
}

interface Backend {
  kind: "file" | "postgres";
  where(): string;
  /** Every stored byte (files) or row (PostgreSQL) of the store, as text. */
  everything(where: string): Promise<string>;
}

const backends: Backend[] = [
  {
    kind: "file",
    where: () => join(root, `file-${n++}`),
    everything: async (dir) => storedFiles(dir),
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

/** Opens the store in this process (not the one killed) and runs `body` against the session, then closes it. */
async function inThisProcess(backend: Backend, where: string, log: string, body: (session: Session) => Promise<void>) {
  const store: ChatStore = await openStore(backend.kind, where);
  try {
    await body(await durableChat({ store, log }).chat.openSession("s1"));
  } finally {
    await store.close?.();
  }
}

describe.each(backends)("durable turns killed at a crash point ($kind)", (backend) => {
  // The exact moment (0 turns), and a seeded few event-loop turns after it: what was announced is stored.
  const random = seededRandom(2_211 + backends.indexOf(backend));
  const delays = [0, 1 + random.int(8)];

  it.each(delays)(
    `killed right after the approval-request reached the turn's reader (%i event-loop turns later, seed ${random.seed}): another process lists that very request pending, resumes it without asking the model again, and the tool runs once on its approval`,
    async (turns) => {
      const { where, log } = await started(backend);
      const { announced } = await runAndKill([backend.kind, where, "s1", log, "announce", String(turns)], "announced");
      expect(deploys(log)).toEqual([]);
      await inThisProcess(backend, where, log, async (session) => {
        expect(await session.pendingApprovals()).toEqual([
          { turnId: announced!.turnId, id: announced!.requestId, stepId: "work", toolName: "deploy", toolCallId: "call-deploy", input: { env: "prod", token: SECRET } },
        ]);
        const turn = await resumeAfterDeath(session, announced!.turnId!);
        expect(turn.requests.map((r) => [r.id, r.retry])).toEqual([[announced!.requestId, undefined]]);
        expect(turn.approve(announced!.requestId!)).toBe(true);
        expect((await turn.result).text).toBe('Deployed: "live on prod".');
      });
      // The model asked for the tool once: the request was not made again under a new id.
      expect(lines(log)).toEqual(["model plan", "model work-ask", `deploy prod ${SECRET}`, "model work-answer", "model reply"]);
      expect(await backend.everything(where)).not.toContain(SECRET);
    },
    TIMEOUT_MS,
  );

  it("killed after the approved tool returned, during the next model call: another process lists nothing pending, the resumed turn asks nothing and answers from the stored result; the tool ran once on one approval", async () => {
    const { where, log } = await started(backend);
    const events = await runAndKill([backend.kind, where, "s1", log, "answer"], "answering");
    const approved = events.approved!;
    expect(deploys(log)).toHaveLength(1);
    let approvals = 1;
    await inThisProcess(backend, where, log, async (session) => {
      const pending = await session.pendingApprovals();
      const turn = await resumeAfterDeath(session, approved.turnId!);
      const asked = turn.requests.map((r) => ({ id: r.id, retry: r.retry }));
      // A person approves whatever they are asked (as they would after the crash): the tool must not run again.
      for (const { id } of asked) approvals += turn.approve(id) ? 1 : 0;
      expect((await turn.result).text).toBe('Deployed: "live on prod".');
      expect({ runs: deploys(log).length, approvals }).toEqual({ runs: 1, approvals: 1 });
      expect(pending).toEqual([]);
      expect(asked).toEqual([]);
    });
    // The model was asked for the answer again (its call died), never for the tool call.
    expect(lines(log)).toEqual(["model plan", "model work-ask", `deploy prod ${SECRET}`, "model work-answer", "model work-answer", "model reply"]);
    expect(await backend.everything(where)).not.toContain(SECRET);
  }, TIMEOUT_MS);
});
