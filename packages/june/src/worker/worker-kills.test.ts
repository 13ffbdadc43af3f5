/**
 * Workers killed at seeded moments, for real: worker processes (./__fixtures__/worker-child.tsx) on PostgreSQL
 * (store and pg-boss, schemas of this run's own) each kill themselves with SIGKILL at a turn's seeded moment:
 * as its first model call starts (before any checkpoint), mid-stream in the call after its tool, or between the
 * tool and that call. Two groups run at once, one of two workers and one of three, each worker that dies replaced
 * by a new one. Every turn completes once, its tool run once, and no turn is left running. The seed is
 * `JUNE_TEST_SEED` (default 39), in the test's name; it is bounded to 5 turns and 5 kills. pg-boss 12 needs Node
 * 22.12+: skipped below.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testSchema, type TestSchema } from "../stores/postgres/__fixtures__/postgres-test-db.js";
import { workerChat } from "./__fixtures__/worker-chat.js";
import type { KillMoment } from "./__fixtures__/worker-child.js";
import { logged, turnsWhen, workerProcesses, type WorkerProcess } from "./__fixtures__/worker-processes.js";

const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
const modernNode = major > 22 || (major === 22 && minor >= 12);
const SEED = Number(process.env.JUNE_TEST_SEED ?? 39);
const MOMENTS: readonly KillMoment[] = ["before-model", "mid-stream", "after-tool"];

/** mulberry32: a small seeded generator. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The moments of a group's turns: the three in a seeded order for three turns, two seeded picks for two. */
function momentsFor(count: number, random: () => number): KillMoment[] {
  const order = [...MOMENTS];
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order.slice(0, count);
}

describe.skipIf(!modernNode)("workers SIGKILLed at seeded moments (pg-boss, Node 22.12+)", () => {
  const root = mkdtempSync(join(tmpdir(), "june-worker-kills-"));
  const log = join(root, "model.log");
  const markers = join(root, "markers");
  let pg: TestSchema;
  const closers: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    mkdirSync(markers);
    pg = await testSchema("wkills");
  });
  afterAll(async () => {
    for (const close of closers.reverse()) await close().catch(() => undefined);
    rmSync(root, { recursive: true, force: true });
    await pg?.drop();
  });

  /** Runs one group: `size` workers (a dead one replaced), one turn per moment, each in a session of its own. */
  async function group(size: number, moments: KillMoment[], label: string) {
    const queueSchema = pg.another();
    const { chat, queue, store } = workerChat({ storeSchema: pg.schema, queueSchema, log, shape: "tool" });
    closers.push(async () => {
      await queue.close();
      await store.close?.();
    });
    const inputs = moments.map((moment, i) => `${label} ${i} ${moment}`);
    const kills = moments.map((moment, i) => ({ input: inputs[i]!, moment }));
    const processes = workerProcesses({ storeSchema: pg.schema, queueSchema, log, shape: "tool", kills, markers, concurrency: 1 });
    closers.push(() => processes.killAll());
    let done = false;
    const keep = (): WorkerProcess => {
      const worker = processes.start();
      // A worker that killed itself is replaced, so the group keeps `size` workers until its turns are done.
      void worker.exited.then(() => {
        if (!done && worker.proc.signalCode === "SIGKILL") keep();
      });
      return worker;
    };
    const first = Array.from({ length: size }, keep);
    await Promise.all(first.map((w) => w.next("started")));
    const turns: { sessionId: string; turnId: string; input: string; moment: KillMoment }[] = [];
    for (const [i, input] of inputs.entries()) {
      const session = await chat.createSession();
      turns.push({ sessionId: session.id, input, moment: moments[i]!, ...(await session.enqueue(input)) });
    }
    try {
      for (const turn of turns) {
        const records = await turnsWhen(chat, turn.sessionId, (t) => t.length > 0 && t.every((r) => r.status !== "running" && r.status !== "interrupted" && r.status !== "suspended"), 120_000);
        // Completed once, with its enqueued id; nothing left running or interrupted.
        expect(records.map((r) => [r.id, r.status, r.text])).toEqual([[turn.turnId, "completed", `done: ${turn.input}`]]);
      }
    } finally {
      done = true;
    }
    return { turns, processes };
  }

  const random = seeded(SEED);
  const twoMoments = momentsFor(2, random);
  const threeMoments = momentsFor(3, random);

  it(`seed ${SEED}: two workers (${twoMoments.join(", ")}) and three workers (${threeMoments.join(", ")}) at once: each turn completes once, its tool runs once`, async () => {
    const [two, three] = await Promise.all([group(2, twoMoments, "two"), group(3, threeMoments, "three")]);
    for (const { turns, processes } of [two, three]) {
      const dying = processes.all.flatMap((w) => w.events.filter((e) => e.event === "dying").map((e) => ({ pid: w.proc.pid, input: e.input, moment: e.moment })));
      for (const turn of turns) {
        // Its worker died at its moment, once.
        const died = dying.filter((d) => d.input === turn.input);
        expect(died.map((d) => d.moment)).toEqual([turn.moment]);
        const steps = logged(log, turn.input);
        // The tool ran once; a model call cut off runs again, a finished one after the tool never does.
        expect(steps.filter((s) => s.step === "tool")).toHaveLength(1);
        const tool = steps.find((s) => s.step === "tool")!;
        if (turn.moment === "before-model") {
          // Killed before its first checkpoint: run again from its start on another worker.
          expect(tool.pid).not.toBe(died[0]!.pid);
          expect(steps.filter((s) => s.step === "act")).toHaveLength(1);
        } else {
          // The tool's outcome was stored before its worker died: only the call after it runs again.
          expect(tool.pid).toBe(died[0]!.pid);
          expect(steps.filter((s) => s.step === "act")).toHaveLength(1);
          expect(steps.filter((s) => s.step === "reply").length).toBe(turn.moment === "mid-stream" ? 2 : 1);
        }
      }
      expect(existsSync(markers)).toBe(true);
    }
  }, 180_000);
});
