/**
 * Turns with no caller, for real: the chat of ./__fixtures__/worker-chat.tsx on PostgreSQL (store and pg-boss
 * queue, each in a schema of this run's own), its workers separate processes (./__fixtures__/worker-child.tsx)
 * killed with SIGKILL at a seeded moment. pg-boss 12 needs Node 22.12+: on an older Node these are skipped.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Chat, TurnRecord } from "june/chat";
import { SessionNotFoundError } from "june/chat";
import { NoQueueError, pgBossQueue, QueueUnavailableError, ScheduleInvalidError, type TurnQueue } from "june/worker";
import { testSchema, type TestSchema } from "../stores/postgres/__fixtures__/postgres-test-db.js";
import { workerChat } from "./__fixtures__/worker-chat.js";
import type { ChildOptions } from "./__fixtures__/worker-child.js";
import { logged, turnsWhen as turnsOf, workerProcesses, type WorkerProcess } from "./__fixtures__/worker-processes.js";
import { createChat } from "../chat/index.js";
import { scriptedModel } from "../testing/index.js";
import { createChatHandler } from "../server/index.js";
import { listen, post } from "../server/__fixtures__/servers.js";

const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
const modernNode = major > 22 || (major === 22 && minor >= 12);
/** The seed of the kill moment (`JUNE_TEST_SEED`): which model call of the turn the worker dies in. */
const SEED = Number(process.env.JUNE_TEST_SEED ?? 39);
/**
 * The model call the worker is killed in: "reply" (odd seeds, the default: after "plan" is checkpointed, so the
 * turn resumes and completes) or "plan" (even seeds: the turn's first call, before any checkpoint: run again from
 * its start).
 */
const KILL_AT = (["plan", "reply"] as const)[SEED % 2]!;

describe.skipIf(!modernNode)("workers on pg-boss (needs Node 22.12+ for pg-boss 12)", () => {
  const root = mkdtempSync(join(tmpdir(), "june-workers-"));
  let processes: ReturnType<typeof workerProcesses>;
  let pg: TestSchema;
  let queueSchema: string;
  let chat: Chat;
  let queue: TurnQueue;
  let store: { close?(): Promise<void> };
  const log = join(root, "model.log");

  beforeAll(async () => {
    pg = await testSchema("worker");
    queueSchema = pg.another();
    ({ chat, queue, store } = workerChat({ storeSchema: pg.schema, queueSchema, log }));
    processes = workerProcesses({ storeSchema: pg.schema, queueSchema, log });
  });
  afterAll(async () => {
    await processes?.killAll();
    await queue?.close();
    await store?.close?.();
    rmSync(root, { recursive: true, force: true });
    await pg?.drop();
  });

  const startWorker = (hang?: string, options: Partial<ChildOptions> = {}): WorkerProcess => processes.start({ queueSchema, ...(hang ? { hang } : {}), ...options });
  const kill = (worker: WorkerProcess) => processes.kill(worker);
  const stop = (worker: WorkerProcess) => processes.stop(worker);
  const turnsWhen = (sessionId: string, done: (turns: TurnRecord[]) => boolean, limitMs?: number) => turnsOf(chat, sessionId, done, limitMs);
  const calls = (input: string) => logged(log, input);

  it("a turn enqueued with no worker waits, then runs on a worker process with the enqueued id", async () => {
    const session = await chat.createSession();
    const { turnId } = await session.enqueue("waits for a worker");
    expect(await session.turns()).toEqual([]);
    expect(calls("waits for a worker")).toEqual([]);
    const worker = startWorker();
    const turns = await turnsWhen(session.id, (t) => t[0]?.status === "completed");
    expect(turns.map((t) => [t.id, t.status, t.text])).toEqual([[turnId, "completed", "done: waits for a worker"]]);
    expect(calls("waits for a worker")).toEqual([
      { pid: worker.proc.pid, step: "plan" },
      { pid: worker.proc.pid, step: "reply" },
    ]);
    await stop(worker);
  }, 90_000);

  it(`a worker SIGKILLed in a durable turn's model call (seed ${SEED}: the ${KILL_AT} call) is taken over by another (completes once: resumed, or with no checkpoint yet, run again from its start)`, async () => {
    const input = `killed ${SEED}`;
    const a = startWorker(`${KILL_AT} ${input}`);
    await a.next("started");
    const session = await chat.createSession();
    const { turnId } = await session.enqueue(input);
    await a.next("hanging");
    const b = startWorker();
    await b.next("started");
    await kill(a);
    if (KILL_AT === "plan") {
      // Killed before its first step finished, the turn has no checkpoint yet: it runs again from its start, same id.
      const turns = await turnsWhen(session.id, (t) => t[0]?.status === "completed", 60_000);
      expect(turns.map((t) => [t.id, t.status, t.text])).toEqual([[turnId, "completed", `done: ${input}`]]);
      expect(calls(input)).toEqual([
        { pid: a.proc.pid, step: "plan" },
        { pid: b.proc.pid, step: "plan" },
        { pid: b.proc.pid, step: "reply" },
      ]);
      expect(b.events.filter((e) => e.event === "job" && e.turnId === turnId).map((e) => [e.kind, e.status])).toEqual([["restarted", "completed"]]);
    } else {
      const turns = await turnsWhen(session.id, (t) => t[0]?.status === "completed", 60_000);
      expect(turns.map((t) => [t.id, t.status, t.text])).toEqual([[turnId, "completed", `done: ${input}`]]);
      // The call cut off runs again on the other worker; the step that finished before it (checkpointed) never does.
      expect(calls(input)).toEqual([
        { pid: a.proc.pid, step: "plan" },
        { pid: a.proc.pid, step: "reply" },
        { pid: b.proc.pid, step: "reply" },
      ]);
      expect(b.events.filter((e) => e.event === "job" && e.turnId === turnId).map((e) => [e.kind, e.status])).toEqual([["resumed", "completed"]]);
    }
    // The session takes new turns.
    const next = await session.enqueue("after the take-over");
    const after = await turnsWhen(session.id, (t) => t[1]?.status === "completed", 60_000);
    expect(after.map((t) => t.id)).toEqual([turnId, next.turnId]);
    await stop(b);
  }, 120_000);

  it("a worker SIGKILLed in a turn that is not durable: the other worker leaves it interrupted, and the session takes new turns", async () => {
    const storeSchema = pg.another();
    const plain = workerChat({ storeSchema, queueSchema, log, plain: true });
    try {
      const input = `plain killed ${SEED}`;
      const a = startWorker(`reply ${input}`, { plain: true, storeSchema });
      await a.next("started");
      const session = await plain.chat.createSession();
      const { turnId } = await session.enqueue(input);
      await a.next("hanging");
      const b = startWorker(undefined, { plain: true, storeSchema });
      await b.next("started");
      await kill(a);
      const next = await session.enqueue("after the dead worker");
      const until = Date.now() + 60_000;
      while ((await session.turns())[1]?.status !== "completed") {
        if (Date.now() > until) throw new Error(`not done: ${JSON.stringify((await session.turns()).map((t) => [t.input, t.status]))}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect((await session.turns()).map((t) => [t.id, t.status])).toEqual([[turnId, "interrupted"], [next.turnId, "completed"]]);
      expect(b.events.filter((e) => e.event === "job" && e.turnId === turnId).map((e) => [e.kind, e.status])).toEqual([["left", "interrupted"]]);
      // Nothing of the dead worker's turn ran again.
      expect(calls(input)).toEqual([{ pid: a.proc.pid, step: "plan" }, { pid: a.proc.pid, step: "reply" }]);
      await stop(b);
    } finally {
      await plain.store.close?.();
    }
  }, 120_000);

  it("12 turns over 3 sessions with two workers: each runs once, in order within its session", async () => {
    const workers = [startWorker(), startWorker()];
    await Promise.all(workers.map((w) => w.next("started")));
    const sessions = [await chat.createSession(), await chat.createSession(), await chat.createSession()];
    const expected = new Map<string, string[]>(sessions.map((s) => [s.id, []]));
    for (let i = 0; i < 12; i++) {
      const session = sessions[i % 3]!;
      const input = `order ${session.id.slice(0, 8)} ${i}`;
      const { turnId } = await session.enqueue(input);
      expected.get(session.id)!.push(`${turnId} ${input}`);
    }
    for (const session of sessions) {
      const turns = await turnsWhen(session.id, (t) => t.length === 4 && t.every((r) => r.status === "completed"));
      expect(turns.map((t) => `${t.id} ${t.input}`)).toEqual(expected.get(session.id));
      for (const t of turns) expect(calls(t.input).map((c) => c.step)).toEqual(["plan", "reply"]);
    }
    await Promise.all(workers.map(stop));
  }, 120_000);

  it("POST /sessions/:id/turns with background: true answers 202 with the turn id, and a worker runs it", async () => {
    const base = await listen(createChatHandler(chat));
    const { id } = (await (await post(`${base}/sessions`, {})).json()) as { id: string };
    const answer = await post(`${base}/sessions/${id}/turns`, { input: "over http", background: true });
    expect(answer.status).toBe(202);
    const { turnId, sessionId } = (await answer.json()) as { turnId: string; sessionId: string };
    expect(sessionId).toBe(id);
    const worker = startWorker();
    const turns = await turnsWhen(id, (t) => t[0]?.status === "completed");
    expect(turns.map((t) => [t.id, t.text])).toEqual([[turnId, "done: over http"]]);
    await stop(worker);
  }, 90_000);

  it("a runAt schedule runs its turn by itself, in its session", async () => {
    const worker = startWorker();
    await worker.next("started");
    const session = await chat.createSession();
    const runAt = new Date(Date.now() + 1500);
    const info = await chat.schedule({ id: `once-${session.id}`, runAt, input: "scheduled once", session: session.id });
    expect(info).toMatchObject({ id: `once-${session.id}`, kind: "once", session: session.id, input: "scheduled once" });
    expect(info.nextRunAt?.getTime()).toBe(runAt.getTime());
    const turns = await turnsWhen(session.id, (t) => t[0]?.status === "completed");
    expect(turns.map((t) => [t.input, t.status])).toEqual([["scheduled once", "completed"]]);
    expect((await chat.schedules()).map((s) => s.id)).not.toContain(`once-${session.id}`);
    await stop(worker);
  }, 90_000);

  it("a cron schedule is listed with its cron and next run; unschedule removes it", async () => {
    const info = await chat.schedule({ id: "nightly", cron: "0 3 * * *", timezone: "Europe/Paris", input: "nightly report", session: "new", owner: "ops" });
    expect(info).toMatchObject({ id: "nightly", kind: "cron", cron: "0 3 * * *", timezone: "Europe/Paris", session: "new", owner: "ops" });
    expect(info.nextRunAt!.getTime()).toBeGreaterThan(Date.now());
    expect((await chat.schedules()).filter((s) => s.id === "nightly")).toHaveLength(1);
    // Over HTTP (what Studio lists): read only, times as ISO strings; with authorize, only the caller's.
    const base = await listen(createChatHandler(chat));
    const listed = (await (await fetch(`${base}/schedules`)).json()) as { schedules: Record<string, unknown>[] };
    expect(listed.schedules.find((s) => s.id === "nightly")).toMatchObject({ kind: "cron", cron: "0 3 * * *", timezone: "Europe/Paris", session: "new", owner: "ops", nextRunAt: info.nextRunAt!.toISOString() });
    const as = (owner: string) => listen(createChatHandler(chat, { authorize: () => ({ owner }) }));
    expect(((await (await fetch(`${await as("ops")}/schedules`)).json()) as { schedules: { id: string }[] }).schedules.map((s) => s.id)).toContain("nightly");
    expect(((await (await fetch(`${await as("someone")}/schedules`)).json()) as { schedules: { id: string }[] }).schedules.map((s) => s.id)).not.toContain("nightly");
    expect(await chat.unschedule("nightly")).toBe(true);
    expect((await chat.schedules()).map((s) => s.id)).not.toContain("nightly");
    expect(await chat.unschedule("nightly")).toBe(false);
  });

  it("bad schedules are refused with the option named, and nothing is scheduled", async () => {
    const session = await chat.createSession();
    const before = await chat.schedules();
    const refused = async (options: Parameters<Chat["schedule"]>[0], field: string) => {
      const error = await chat.schedule(options).then(() => undefined, (e: unknown) => e);
      expect(ScheduleInvalidError.isInstance(error), String(error)).toBe(true);
      expect((error as ScheduleInvalidError).field).toBe(field);
      expect((error as Error).message).toContain(field);
    };
    await refused({ id: "bad-cron", cron: "every tuesday", input: "x", session: session.id }, "cron");
    await refused({ id: "bad-cron2", cron: "61 * * * *", input: "x", session: session.id }, "cron");
    await refused({ id: "bad-tz", cron: "0 3 * * *", timezone: "Mars/Olympus", input: "x", session: session.id }, "timezone");
    await refused({ id: "past", runAt: new Date(Date.now() - 60_000), input: "x", session: session.id }, "runAt");
    await refused({ id: "bad id!", runAt: new Date(Date.now() + 60_000), input: "x", session: session.id }, "id");
    await refused({ id: "no-input", runAt: new Date(Date.now() + 60_000), input: "", session: session.id }, "input");
    const unknown = await chat.schedule({ id: "unknown", cron: "0 3 * * *", input: "x", session: "no-such-session" }).catch((e: unknown) => e);
    expect(SessionNotFoundError.isInstance(unknown)).toBe(true);
    expect(await chat.schedules()).toEqual(before);
  });

  it("a queue that cannot connect is a QueueUnavailableError naming it; a chat without a queue says so", async () => {
    const down = pgBossQueue({ connectionString: "postgres://postgres:hunter2@127.0.0.1:1/test", schema: queueSchema });
    const offline = createChat({ model: scriptedModel([]), queue: down });
    const session = await offline.createSession();
    const error = await session.enqueue("hello").catch((e: unknown) => e);
    expect(QueueUnavailableError.isInstance(error), String(error)).toBe(true);
    expect((error as Error).message).toContain("pg-boss at 127.0.0.1:1/test");
    expect((error as Error).message).not.toContain("hunter2");
    const scheduled = await offline.schedule({ id: "x", cron: "0 3 * * *", input: "x", session: "new" }).catch((e: unknown) => e);
    expect(QueueUnavailableError.isInstance(scheduled)).toBe(true);
    await down.close();
    const none = await (await createChat({ model: scriptedModel([]) }).createSession()).enqueue("hi").catch((e: unknown) => e);
    expect(NoQueueError.isInstance(none)).toBe(true);
  });
});
