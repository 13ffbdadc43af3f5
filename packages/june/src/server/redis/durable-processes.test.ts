/**
 * Durable turns across real processes (issue 11): server processes share one PostgreSQL schema
 * (`postgresStore`, short leases) and one Redis prefix (`redisTurnEvents`). Process A runs a durable agent
 * turn until it waits for approval, then suspends (or is killed with SIGKILL); process B lists the pending
 * approval over HTTP, approves it, and the turn completes on B: the tool ran once, the journal says
 * completed, no checkpoint is left.
 */
import { spawn, type ChildProcessByStdio } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import type { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import type { UIMessage } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SECRET } from "../../chat/__fixtures__/durable-chat.js";
import { postgresStore } from "../../stores/postgres/postgres-store.js";
import { TEST_DATABASE_URL, testSchema, type TestSchema } from "../../stores/postgres/__fixtures__/postgres-test-db.js";
import { post } from "../__fixtures__/servers.js";
import { sseEvents, type SseEvent } from "../__fixtures__/sse-client.js";
import { answer, assemble, collectChunks, sendUi, uiText, uiTransport, user } from "../__fixtures__/ui-client.js";
import { RedisNames } from "./redis-keys.js";
import { dropPrefix, testPrefix, testRedis, TEST_REDIS_URL, type TestRedisClient } from "./__fixtures__/redis-test.js";

const packageDir = fileURLToPath(new URL("../../..", import.meta.url));
const fixture = fileURLToPath(new URL("./__fixtures__/durable-server-process.tsx", import.meta.url));
const root = mkdtempSync(join(tmpdir(), "june-durable-procs-"));
const log = join(root, "calls.log");
const LEASE_TTL_MS = 1000;
const MCP_SERVER = fileURLToPath(new URL("../../mcp/__fixtures__/stdio-server.mjs", import.meta.url));

let redis: TestRedisClient;
let db: TestSchema;
const prefix = testPrefix("durable-procs");
const children: ChildProcessByStdio<null, Readable, null>[] = [];

beforeAll(async () => {
  redis = await testRedis();
  db = await testSchema("durable_procs");
});
afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  await dropPrefix(redis, prefix).catch(() => undefined);
  redis?.destroy();
  await db?.drop();
  rmSync(root, { recursive: true, force: true });
});

interface ServerProcess {
  base: string;
  processId: string;
  child: ChildProcessByStdio<null, Readable, null>;
  exited: Promise<void>;
}

async function startServer(suspendAfterMs?: number, more: { mcp?: { script: string; log: string } } = {}): Promise<ServerProcess> {
  const options = {
    ...more,
    databaseUrl: TEST_DATABASE_URL,
    schema: db.schema,
    redisUrl: TEST_REDIS_URL,
    prefix,
    log,
    suspendAfterMs,
    leaseTtlMs: LEASE_TTL_MS,
    presenceTtlMs: 1500,
    blockMs: 150,
  };
  const child = spawn(process.execPath, ["--import", "tsx", fixture, JSON.stringify(options)], { cwd: packageDir, stdio: ["ignore", "pipe", "inherit"] });
  children.push(child);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const first = await createInterface({ input: child.stdout })[Symbol.asyncIterator]().next();
  if (first.done) throw new Error("The server process ended before it listened");
  const { url, processId } = JSON.parse(first.value) as { url: string; processId: string };
  return { base: url, processId, child, exited };
}

/** Tool runs (`deploy ...` lines) logged by every process so far. */
const deploys = () => (existsSync(log) ? readFileSync(log, "utf8").split("\n").filter((l) => l.startsWith("deploy")) : []);

async function newSession(base: string): Promise<string> {
  const response = await post(`${base}/sessions`);
  expect(response.status).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

async function collect(response: Response, onEvent: (event: SseEvent) => Promise<boolean | void> | boolean | void = () => {}) {
  expect(response.status).toBe(200);
  const events: SseEvent[] = [];
  for await (const event of sseEvents(response)) {
    events.push(event);
    if ((await onEvent(event)) === true) break;
  }
  return events;
}

interface SessionView {
  runningTurnId?: string;
  turns: { id: string; status: string; resumable?: boolean }[];
  pendingApprovals?: { turnId: string; id: string; toolName: string; toolCallId: string; input: string; retry?: boolean }[];
}
const sessionOf = async (base: string, sessionId: string) => (await (await fetch(`${base}/sessions/${sessionId}`)).json()) as SessionView;
const uiMessagesOf = async (base: string, sessionId: string) => {
  const text = await (await fetch(`${base}/sessions/${sessionId}/ui-messages`)).text();
  expect(text).not.toContain(SECRET);
  return JSON.parse(text) as UIMessage[];
};

/**
 * Approves through `base`, as a client would retry: until the killed process's presence in Redis runs out,
 * the handler still sends the approve there and answers 504 (its process is gone); until its lease runs
 * out (PostgreSQL cannot see that it died) the store answers busy (409 SessionBusyError). Up to 5 s.
 */
async function approveTakingOver(base: string, sessionId: string, turnId: string, approvalId: string) {
  const refusals: { status: number; body: { name?: string; error?: string } }[] = [];
  for (const started = Date.now(); ; ) {
    const response = await post(`${base}/sessions/${sessionId}/turns/${turnId}/approve`, { approvalId });
    if (response.status === 200) return refusals;
    const body = (await response.json()) as { name?: string; error?: string };
    refusals.push({ status: response.status, body });
    const retryable = body.name === "SessionBusyError" || (response.status === 504 && /is gone/.test(body.error ?? ""));
    if (!retryable || Date.now() - started > 5000) throw new Error(`approve answered ${response.status}: ${JSON.stringify(body)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** After B approved: the turn ends completed, the tool ran once, the journal says completed, no checkpoint is left. */
async function expectFinishedOn(b: ServerProcess, sessionId: string, turnId: string) {
  const rest = await collect(await fetch(`${b.base}/turns/${turnId}/events`));
  expect(rest.at(-1)).toMatchObject({ event: "turn-end", data: { status: "completed", text: 'Deployed: "live on prod".' } });
  expect(deploys()).toEqual([`deploy prod ${SECRET}`]);
  const after = await sessionOf(b.base, sessionId);
  expect(after.turns).toEqual([expect.objectContaining({ id: turnId, status: "completed" })]);
  expect(after.pendingApprovals).toBeUndefined();
  const store = postgresStore({ connectionString: TEST_DATABASE_URL, schema: db.schema, max: 1 });
  try {
    expect(await store.getCheckpoint!(sessionId, turnId)).toBeUndefined();
  } finally {
    await store.close();
  }
  // What other processes read in Redis is the resumed turn: its events from its first, ended completed.
  const names = new RedisNames(prefix);
  expect(await redis.hGet(names.turn(turnId), "ended")).toBe("completed");
  expect(await redis.hGet(names.turn(turnId), "owner")).toBe(b.processId);
  const entries = await redis.xRange(names.events(turnId), "-", "+");
  expect((entries ?? []).map((entry) => JSON.parse(entry.message.data!))).toEqual(rest.map((e) => e.data));
  // Decided once: a second approve is refused and runs nothing.
  expect((await post(`${b.base}/sessions/${sessionId}/turns/${turnId}/approve`, { approvalId: "x" })).status).toBe(409);
  expect(deploys()).toHaveLength(1);
}

describe("durable turns across two server processes (postgresStore + redisTurnEvents)", () => {
  let b: ServerProcess;
  beforeAll(async () => {
    b = await startServer();
  }, 60_000);

  it("A suspends while it waits for approval; B lists the request, approves it, and finishes the turn", async () => {
    rmSync(log, { force: true });
    const a = await startServer(300);
    const sessionId = await newSession(a.base);
    const first = await collect(await post(`${a.base}/sessions/${sessionId}/turns`, { input: "ship the docs" }));
    const turnId = first.find((e) => e.event === "turn-start")!.data.turnId as string;
    const request = first.find((e) => e.event === "approval-request")!.data.request as { id: string };
    expect(first.at(-1)).toMatchObject({ event: "turn-end", data: { status: "suspended" } });
    expect(deploys()).toEqual([]);

    const listed = await sessionOf(b.base, sessionId);
    expect(listed.turns).toEqual([expect.objectContaining({ id: turnId, status: "suspended", resumable: true })]);
    expect(listed.pendingApprovals).toEqual([expect.objectContaining({ turnId, id: request.id, toolName: "deploy", toolCallId: "call-deploy" })]);
    expect(JSON.stringify(listed)).not.toContain(SECRET);

    expect(await approveTakingOver(b.base, sessionId, turnId, request.id)).toEqual([]);
    await expectFinishedOn(b, sessionId, turnId);
    a.child.kill("SIGTERM");
    await a.exited;
  });

  it("A suspends; approved through A itself, A resumes and finishes the turn, and B follows the resumed turn through Redis", async () => {
    rmSync(log, { force: true });
    const a = await startServer(300);
    const sessionId = await newSession(a.base);
    const first = await collect(await post(`${a.base}/sessions/${sessionId}/turns`, { input: "ship the docs" }));
    const turnId = first.find((e) => e.event === "turn-start")!.data.turnId as string;
    const request = first.find((e) => e.event === "approval-request")!.data.request as { id: string };
    expect(first.at(-1)).toMatchObject({ event: "turn-end", data: { status: "suspended" } });

    expect((await post(`${a.base}/sessions/${sessionId}/turns/${turnId}/approve`, { approvalId: request.id })).status).toBe(200);
    const onA = await collect(await fetch(`${a.base}/turns/${turnId}/events`));
    expect(onA.at(-1)).toMatchObject({ event: "turn-end", data: { status: "completed", text: 'Deployed: "live on prod".' } });
    expect(await collect(await fetch(`${b.base}/turns/${turnId}/events`))).toEqual(onA);
    expect(deploys()).toEqual([`deploy prod ${SECRET}`]);
    expect((await sessionOf(b.base, sessionId)).turns).toEqual([expect.objectContaining({ id: turnId, status: "completed" })]);
    a.child.kill("SIGTERM");
    await a.exited;
  });

  it("A is killed (SIGKILL) while it waits for approval; B lists the request, takes the lease over once it runs out, approves, and finishes the turn", async () => {
    rmSync(log, { force: true });
    const a = await startServer();
    const sessionId = await newSession(a.base);
    let turnId = "";
    let requestId = "";
    const watcher = postgresStore({ connectionString: TEST_DATABASE_URL, schema: db.schema, max: 1 });
    try {
      await collect(await post(`${a.base}/sessions/${sessionId}/turns`, { input: "ship the docs" }), async (event) => {
        if (event.event === "turn-start") turnId = event.data.turnId as string;
        if (event.event !== "approval-request") return;
        requestId = (event.data.request as { id: string }).id;
        // Once the checkpoint that lists the request is stored, nothing is lost by dying.
        await expect.poll(async () => (await watcher.getCheckpoint!(sessionId, turnId))?.data.includes(requestId), { timeout: 5000 }).toBe(true);
        return true;
      });
    } finally {
      await watcher.close();
    }
    a.child.kill("SIGKILL");
    await a.exited;
    expect(deploys()).toEqual([]);

    // Until A's presence in Redis runs out, B reads the turn as running there (as it does a live turn of A's).
    await expect.poll(async () => (await sessionOf(b.base, sessionId)).runningTurnId, { timeout: 5000 }).toBeUndefined();
    const listed = await sessionOf(b.base, sessionId);
    expect(listed.turns).toEqual([expect.objectContaining({ id: turnId, resumable: true })]);
    expect(listed.pendingApprovals).toEqual([expect.objectContaining({ turnId, id: requestId, toolName: "deploy", toolCallId: "call-deploy" })]);
    expect(JSON.stringify(listed)).not.toContain(SECRET);

    const refusals = await approveTakingOver(b.base, sessionId, turnId, requestId);
    // Only "gone" and "busy" refusals while the dead process's presence and lease ran out, never a decision.
    for (const refusal of refusals) expect(refusal.body.name === "SessionBusyError" || refusal.status === 504).toBe(true);
    await expectFinishedOn(b, sessionId, turnId);
  });

  /** A turn of A's suspended, then resumed on B and waiting there for its approval again (B's events so far). */
  async function suspendOnAResumeOnB(a: ServerProcess, start: (sessionId: string) => Promise<void>) {
    const sessionId = await newSession(a.base);
    await start(sessionId);
    await expect.poll(async () => (await sessionOf(a.base, sessionId)).turns[0]?.status, { timeout: 5000 }).toBe("suspended");
    const turnId = (await sessionOf(a.base, sessionId)).turns[0]!.id;
    const onB = await collect(await post(`${b.base}/sessions/${sessionId}/turns/${turnId}/resume`), (event) => event.event === "approval-request");
    const requestId = (onB.at(-1)!.data.request as { id: string }).id;
    return { sessionId, turnId, requestId, onB };
  }

  it("A suspends, B resumes the turn: A's session read, its events and its approve follow B's live turn, and end as B's do", async () => {
    rmSync(log, { force: true });
    const a = await startServer(300);
    const { sessionId, turnId, requestId, onB } = await suspendOnAResumeOnB(a, async (sessionId) => {
      const first = await collect(await post(`${a.base}/sessions/${sessionId}/turns`, { input: "ship the docs" }));
      expect(first.at(-1)).toMatchObject({ event: "turn-end", data: { status: "suspended" } });
    });

    // A answers as B does: the turn runs (on B), waiting on the same request.
    const viewOnB = await sessionOf(b.base, sessionId);
    expect(viewOnB.runningTurnId).toBe(turnId);
    expect(await sessionOf(a.base, sessionId)).toEqual(viewOnB);
    // A page reloaded on A shows B's live message: the request, waiting.
    const uiOnB = await uiMessagesOf(b.base, sessionId);
    expect(uiOnB[1]!.parts.find((p) => p.type === "dynamic-tool")).toMatchObject({ toolName: "deploy", state: "approval-requested" });
    // (Polled: B's copy into Redis may be a write behind what B shows.)
    await expect.poll(() => uiMessagesOf(a.base, sessionId), { timeout: 5000 }).toEqual(uiOnB);
    // A's events are B's live turn's, not A's copy that ended suspended.
    const eventsOnA = await fetch(`${a.base}/turns/${turnId}/events`);
    // Resumed through A as well (a second client): A follows the turn B runs, rather than refusing it as busy.
    const resumedOnA = await post(`${a.base}/sessions/${sessionId}/turns/${turnId}/resume`);
    // Approved through A (as Studio sends it, with the session): the decision goes to B, where the turn runs.
    const approved = await post(`${a.base}/sessions/${sessionId}/turns/${turnId}/approve`, { approvalId: requestId });
    expect({ status: approved.status, body: await approved.json() }).toEqual({ status: 200, body: { ok: true } });
    const followedOnA = await collect(eventsOnA);
    const allOnB = await collect(await fetch(`${b.base}/turns/${turnId}/events`));
    expect(allOnB.slice(0, onB.length)).toEqual(onB);
    expect(allOnB.at(-1)).toMatchObject({ event: "turn-end", data: { status: "completed", text: 'Deployed: "live on prod".' } });
    expect(followedOnA).toEqual(allOnB);
    expect(await collect(resumedOnA)).toEqual(allOnB);
    // And after the end: A replays B's events, and reads the session as B does.
    expect(await collect(await fetch(`${a.base}/turns/${turnId}/events`))).toEqual(allOnB);
    expect(await sessionOf(a.base, sessionId)).toEqual(await sessionOf(b.base, sessionId));
    expect(await uiMessagesOf(a.base, sessionId)).toEqual(await uiMessagesOf(b.base, sessionId));
    expect(deploys()).toEqual([`deploy prod ${SECRET}`]);
    // Decided once, through either process.
    expect((await post(`${a.base}/sessions/${sessionId}/turns/${turnId}/approve`, { approvalId: requestId })).status).toBe(409);
    expect(deploys()).toHaveLength(1);
    a.child.kill("SIGTERM");
    await a.exited;
  });

  it("A suspends, B resumes the turn: a cancel sent to A ends it on B, and nothing runs", async () => {
    rmSync(log, { force: true });
    const a = await startServer(300);
    const { sessionId, turnId } = await suspendOnAResumeOnB(a, async (sessionId) => {
      await collect(await post(`${a.base}/sessions/${sessionId}/turns`, { input: "ship the docs" }));
    });
    const canceled = await post(`${a.base}/sessions/${sessionId}/turns/${turnId}/cancel`);
    expect({ status: canceled.status, body: await canceled.json() }).toEqual({ status: 200, body: { ok: true } });
    const onA = await collect(await fetch(`${a.base}/turns/${turnId}/events`));
    expect(onA.at(-1)).toMatchObject({ event: "turn-end", data: { status: "canceled" } });
    expect(onA).toEqual(await collect(await fetch(`${b.base}/turns/${turnId}/events`)));
    expect((await sessionOf(a.base, sessionId)).turns).toEqual([expect.objectContaining({ id: turnId, status: "canceled" })]);
    expect(deploys()).toEqual([]);
    a.child.kill("SIGTERM");
    await a.exited;
  });

  it("A suspends; the session's cancel route on B ends it (journaled canceled, no checkpoint), and A's approve is refused", async () => {
    rmSync(log, { force: true });
    const a = await startServer(300);
    const sessionId = await newSession(a.base);
    const first = await collect(await post(`${a.base}/sessions/${sessionId}/turns`, { input: "ship the docs" }));
    const turnId = first.find((e) => e.event === "turn-start")!.data.turnId as string;
    const request = first.find((e) => e.event === "approval-request")!.data.request as { id: string };
    expect(first.at(-1)).toMatchObject({ event: "turn-end", data: { status: "suspended" } });
    // No process runs it: a steer is refused (A's copy ended suspended); the session's cancel route ends it.
    expect((await post(`${b.base}/sessions/${sessionId}/turns/${turnId}/steer`, { input: "more" })).status).toBe(409);
    expect((await post(`${b.base}/turns/${turnId}/cancel`)).status).toBe(404);
    const canceled = await post(`${b.base}/sessions/${sessionId}/turns/${turnId}/cancel`);
    expect({ status: canceled.status, body: await canceled.json() }).toEqual({ status: 200, body: { ok: true } });
    for (const base of [a.base, b.base]) {
      const view = await sessionOf(base, sessionId);
      expect(view.turns).toEqual([expect.objectContaining({ id: turnId, status: "canceled" })]);
      expect(view.pendingApprovals).toBeUndefined();
    }
    const store = postgresStore({ connectionString: TEST_DATABASE_URL, schema: db.schema, max: 1 });
    try {
      expect(await store.getCheckpoint!(sessionId, turnId)).toBeUndefined();
    } finally {
      await store.close();
    }
    expect((await post(`${a.base}/sessions/${sessionId}/turns/${turnId}/approve`, { approvalId: request.id })).status).toBe(409);
    expect(deploys()).toEqual([]);
    a.child.kill("SIGTERM");
    await a.exited;
  });

  it("A suspends, B resumes the turn: the session's cancel route on A ends it on B, and nothing runs", async () => {
    rmSync(log, { force: true });
    const a = await startServer(300);
    const { sessionId, turnId } = await suspendOnAResumeOnB(a, async (sessionId) => {
      await collect(await post(`${a.base}/sessions/${sessionId}/turns`, { input: "ship the docs" }));
    });
    const canceled = await post(`${a.base}/sessions/${sessionId}/turns/${turnId}/cancel`);
    expect({ status: canceled.status, body: await canceled.json() }).toEqual({ status: 200, body: { ok: true } });
    const onB = await collect(await fetch(`${b.base}/turns/${turnId}/events`));
    expect(onB.at(-1)).toMatchObject({ event: "turn-end", data: { status: "canceled" } });
    expect((await sessionOf(a.base, sessionId)).turns).toEqual([expect.objectContaining({ id: turnId, status: "canceled" })]);
    expect(deploys()).toEqual([]);
    a.child.kill("SIGTERM");
    await a.exited;
  });

  it("/ui-chat: started on A, suspended, resumed on B; the client's denial sent to A reaches B's turn, and A streams its end", async () => {
    rmSync(log, { force: true });
    const a = await startServer(300);
    const onA = uiTransport(a.base);
    let paused: Awaited<ReturnType<typeof assemble>> | undefined;
    const { sessionId, turnId } = await suspendOnAResumeOnB(a, async (sessionId) => {
      const first = await collectChunks(await sendUi(onA, sessionId, [user("u1", "ship the docs")]));
      expect(first.at(-1)).toMatchObject({ type: "finish", finishReason: "tool-calls" });
      paused = await assemble(first);
    });
    expect(paused!.id).toBe(turnId);
    expect(paused!.parts.find((p) => p.type === "dynamic-tool")).toMatchObject({ state: "approval-requested", toolName: "deploy" });

    const answered = answer(paused!, false, "not today");
    const rest = await collectChunks(await sendUi(onA, sessionId, [user("u1", "ship the docs"), answered]));
    expect(rest.at(-1)).toMatchObject({ type: "finish", finishReason: "stop" });
    const final = await assemble(rest, answered);
    expect(final.id).toBe(turnId);
    expect(final.parts.find((p) => p.type === "dynamic-tool")).toMatchObject({ state: "output-denied" });
    expect(uiText(final)).toContain("Not deployed.");
    expect(JSON.stringify(rest)).not.toContain(SECRET);
    expect((await sessionOf(b.base, sessionId)).turns).toEqual([expect.objectContaining({ id: turnId, status: "completed", text: "Not deployed." })]);
    expect(deploys()).toEqual([]);
    a.child.kill("SIGTERM");
    await a.exited;
  });

  it("/ui-chat: the turn suspended on A; the client's approval sent to B resumes it there, the tool runs once, and the same message goes on", async () => {
    rmSync(log, { force: true });
    const a = await startServer(300);
    const sessionId = await newSession(a.base);
    const first = await collectChunks(await sendUi(uiTransport(a.base), sessionId, [user("u1", "ship the docs")]));
    expect(first.at(-1)).toMatchObject({ type: "finish", finishReason: "tool-calls" });
    const paused = await assemble(first);
    await expect.poll(async () => (await sessionOf(a.base, sessionId)).turns[0]?.status, { timeout: 5000 }).toBe("suspended");

    const answered = answer(paused, true);
    const rest = await collectChunks(await sendUi(uiTransport(b.base), sessionId, [user("u1", "ship the docs"), answered]));
    expect(rest[0]).toEqual({ type: "start", messageId: paused.id });
    expect(rest.at(-1)).toMatchObject({ type: "finish", finishReason: "stop" });
    const final = await assemble(rest, answered);
    expect(final.parts.find((p) => p.type === "dynamic-tool")).toMatchObject({ state: "output-available" });
    expect(uiText(final)).toContain('Deployed: "live on prod".');
    expect(JSON.stringify(rest)).not.toContain(SECRET);
    expect(deploys()).toEqual([`deploy prod ${SECRET}`]);
    expect((await sessionOf(a.base, sessionId)).turns).toEqual([expect.objectContaining({ id: paused.id, status: "completed" })]);
    // Sent again (the client holds it until it sees the outcome), through either process: nothing runs again.
    for (const base of [a.base, b.base]) {
      const again = await collectChunks(await sendUi(uiTransport(base), sessionId, [user("u1", "ship the docs"), answer(paused, true)]));
      expect(again.at(-1)).toMatchObject({ type: "finish" });
    }
    expect(deploys()).toHaveLength(1);
    a.child.kill("SIGTERM");
    await a.exited;
  });

  it("an MCP tool in a durable turn: A suspends while the call waits; B resumes and approves it, and the call reaches the MCP server once; denied, never", async () => {
    const mcp = { script: MCP_SERVER, log: join(root, "mcp.jsonl") };
    const calls = () => (existsSync(mcp.log) ? readFileSync(mcp.log, "utf8").split("\n").filter((l) => l.includes('"event":"call"')) : []);
    const [a, other] = await Promise.all([startServer(300, { mcp }), startServer(undefined, { mcp })]);
    try {
      const ask = async () => {
        const sessionId = await newSession(a.base);
        const first = await collect(await post(`${a.base}/sessions/${sessionId}/turns`, { input: "note this" }));
        expect(first.at(-1)).toMatchObject({ event: "turn-end", data: { status: "suspended" } });
        const request = first.find((e) => e.event === "approval-request")!.data.request as { id: string; toolName: string };
        expect(request.toolName).toBe("note_save");
        return { sessionId, turnId: first[0]!.data.turnId as string, requestId: request.id };
      };

      const approved = await ask();
      expect(calls()).toEqual([]);
      expect(await approveTakingOver(other.base, approved.sessionId, approved.turnId, approved.requestId)).toEqual([]);
      const rest = await collect(await fetch(`${other.base}/turns/${approved.turnId}/events`));
      expect(rest.at(-1)).toMatchObject({ event: "turn-end", data: { status: "completed", text: "Saved: note 1." } });
      expect(calls()).toHaveLength(1);
      expect((await post(`${other.base}/sessions/${approved.sessionId}/turns/${approved.turnId}/approve`, { approvalId: approved.requestId })).status).toBe(409);
      // Followed through A too (where it suspended): the same events.
      expect(await collect(await fetch(`${a.base}/turns/${approved.turnId}/events`))).toEqual(rest);

      const denied = await ask();
      const deny = await post(`${other.base}/sessions/${denied.sessionId}/turns/${denied.turnId}/deny`, { approvalId: denied.requestId });
      expect(deny.status).toBe(200);
      const end = (await collect(await fetch(`${other.base}/turns/${denied.turnId}/events`))).at(-1);
      expect(end).toMatchObject({ event: "turn-end", data: { status: "completed", text: "Not done." } });
      expect(calls()).toHaveLength(1);
    } finally {
      for (const server of [a, other]) server.child.kill("SIGTERM");
      await Promise.all([a.exited, other.exited]);
    }
  });
});
