/**
 * A worker's turns reach the HTTP servers' turn-event bus (real Redis), and a decision on a suspended turn of a
 * chat with a queue resumes it on a worker: an HTTP server in this process (`createChatHandler` with
 * `redisTurnEvents`) and a worker process (`createWorker({ turnEvents })`) share PostgreSQL (store and pg-boss,
 * schemas of this run's own) and Redis (a key prefix of its own). pg-boss 12 needs Node 22.12+: skipped below.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Chat } from "../chat/types.js";
import { createChatHandler, serve } from "../server/index.js";
import { redisTurnEvents, type RedisTurnEvents } from "../server/redis/index.js";
import { dropPrefix, testPrefix, testRedis, TEST_REDIS_URL, type TestRedisClient } from "../server/redis/__fixtures__/redis-test.js";
import { post } from "../server/__fixtures__/servers.js";
import { readSse, type SseEvent } from "../server/__fixtures__/sse-client.js";
import { testSchema, type TestSchema } from "../stores/postgres/__fixtures__/postgres-test-db.js";
import type { TurnQueue } from "./index.js";
import { workerChat } from "./__fixtures__/worker-chat.js";
import { logged, turnsWhen, workerProcesses, type WorkerProcess } from "./__fixtures__/worker-processes.js";

const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
const modernNode = major > 22 || (major === 22 && minor >= 12);

describe.skipIf(!modernNode)("a worker's turns over the turn-event bus, and decisions resumed on a worker (pg-boss, Redis)", () => {
  const root = mkdtempSync(join(tmpdir(), "june-worker-bus-"));
  const log = join(root, "model.log");
  const prefix = testPrefix("worker-bus");
  let pg: TestSchema;
  let redis: TestRedisClient;
  let chat: Chat;
  let queue: TurnQueue;
  let store: { close?(): Promise<void> };
  let bus: RedisTurnEvents;
  let base: string;
  let server: { url: string; close(): Promise<void> };
  let workers: ReturnType<typeof workerProcesses>;
  let worker: WorkerProcess;

  beforeAll(async () => {
    pg = await testSchema("wbus");
    redis = await testRedis();
    const queueSchema = pg.another();
    ({ chat, queue, store } = workerChat({ storeSchema: pg.schema, queueSchema, log, shape: "tool", approval: "person" }));
    bus = redisTurnEvents({ url: TEST_REDIS_URL }, { prefix, presenceTtlMs: 3000 });
    // Served for the whole file (`listen` would close it after the first test).
    server = await serve({ handler: createChatHandler(chat, { turnEvents: bus }) });
    base = server.url;
    workers = workerProcesses({ storeSchema: pg.schema, queueSchema, log, shape: "tool", approval: "person", redis: { url: TEST_REDIS_URL, prefix } });
    worker = workers.start();
    await worker.next("started");
  }, 60_000);
  afterAll(async () => {
    await workers?.killAll();
    await server?.close();
    await bus?.close();
    await queue?.close();
    await store?.close?.();
    if (redis) {
      await dropPrefix(redis, prefix);
      redis.destroy();
    }
    rmSync(root, { recursive: true, force: true });
    await pg?.drop();
  });

  /** The turn's events from `GET /turns/:id/events` on the HTTP server, once they end with a `turn-end` of `status`. */
  async function eventsUntil(turnId: string, status: string, limitMs = 60_000): Promise<SseEvent[]> {
    const until = Date.now() + limitMs;
    let last: unknown;
    for (;;) {
      const response = await fetch(`${base}/turns/${turnId}/events`);
      if (response.status === 200) {
        const events = await readSse(response);
        const end = events.at(-1)?.data as { type?: string; status?: string } | undefined;
        if (end?.type === "turn-end" && end.status === status) return events;
        last = end;
      } else {
        last = response.status;
        await response.body?.cancel();
      }
      if (Date.now() > until) throw new Error(`turn ${turnId}: no turn-end "${status}" after ${limitMs} ms (last: ${JSON.stringify(last)})`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }

  async function backgroundTurn(input: string): Promise<{ sessionId: string; turnId: string }> {
    const { id } = (await (await post(`${base}/sessions`, {})).json()) as { id: string };
    const answer = await post(`${base}/sessions/${id}/turns`, { input, background: true });
    expect(answer.status).toBe(202);
    return (await answer.json()) as { sessionId: string; turnId: string };
  }

  it("a background turn run on a worker is followed over HTTP through the bus; approving it answers 202 and a worker resumes it (the tool runs once, there)", async () => {
    const input = "ship the docs";
    const { sessionId, turnId } = await backgroundTurn(input);
    // The worker's run, read on this process's server from Redis: it asks for the tool, then suspends.
    const first = await eventsUntil(turnId, "suspended");
    expect(first[0]?.data).toMatchObject({ type: "turn-start", turnId, sessionId });
    const request = first.find((e) => e.data.type === "approval-request")?.data as { request: { id: string; toolName: string } };
    expect(request.request.toolName).toBe("record");
    const view = (await (await fetch(`${base}/sessions/${sessionId}`)).json()) as { turns: { id: string; status: string }[]; pendingApprovals: { id: string }[] };
    expect(view.turns.map((t) => [t.id, t.status])).toEqual([[turnId, "suspended"]]);
    expect(view.pendingApprovals.map((p) => p.id)).toEqual([request.request.id]);

    // A request the turn does not wait on is refused here, as the live turn would (nothing queued).
    const wrong = await post(`${base}/sessions/${sessionId}/turns/${turnId}/approve`, { approvalId: "no-such-request" });
    expect(wrong.status).toBe(409);
    expect(((await wrong.json()) as { name: string }).name).toBe("ApprovalNotPendingError");

    const approved = await post(`${base}/sessions/${sessionId}/turns/${turnId}/approve`, { approvalId: request.request.id });
    expect(approved.status).toBe(202);
    expect(await approved.json()).toEqual({ sessionId, turnId });
    // The resumed turn, published again under its id by the worker: its events from the first, through completed.
    const second = await eventsUntil(turnId, "completed");
    expect(second.filter((e) => e.data.type === "text-delta").map((e) => e.data.text).join("")).toBe(`done: ${input}`);
    const turns = await turnsWhen(chat, sessionId, (t) => t[0]?.status === "completed");
    expect(turns.map((t) => [t.id, t.status, t.text])).toEqual([[turnId, "completed", `done: ${input}`]]);
    // Nothing ran in this process: the first call and, after the approval, the tool and the reply on the worker.
    expect(logged(log, input)).toEqual([
      { pid: worker.proc.pid, step: "act" },
      { pid: worker.proc.pid, step: "tool" },
      { pid: worker.proc.pid, step: "reply" },
    ]);
    const jobs = () => worker.events.filter((e) => e.event === "job" && e.turnId === turnId).map((e) => [e.kind, e.status]);
    // The job's line comes once the worker read the turn's record back.
    for (let i = 0; i < 100 && jobs().length < 2; i++) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(jobs()).toEqual([["ran", "suspended"], ["resumed", "completed"]]);
  }, 120_000);

  it("denying a suspended turn answers 202; the worker resumes it with the denial and the tool never runs", async () => {
    const input = "drop the table";
    const { sessionId, turnId } = await backgroundTurn(input);
    const first = await eventsUntil(turnId, "suspended");
    const request = first.find((e) => e.data.type === "approval-request")?.data as { request: { id: string } };
    const denied = await post(`${base}/sessions/${sessionId}/turns/${turnId}/deny`, { approvalId: request.request.id, reason: "not today" });
    expect(denied.status).toBe(202);
    await eventsUntil(turnId, "completed");
    expect(logged(log, input).map((c) => c.step)).toEqual(["act", "reply"]);
  }, 120_000);
});
