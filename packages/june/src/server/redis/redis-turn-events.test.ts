/**
 * Two handlers, each with a chat, a pool and a Redis bus of its own, behind two Node http servers, sharing
 * sessions in PostgreSQL and turns in Redis: what one server runs, the other serves.
 */
import { setTimeout as sleep } from "node:timers/promises";
import type { Chat } from "june/chat";
import { createChatHandler } from "june/server";
import { redisTurnEvents, type RedisTurnEvents, type RedisTurnEventsOptions } from "june/server/redis";
import { postgresStore } from "june/chat";
import type { PostgresStore } from "../../stores/postgres/postgres-store.js";
import { createClient } from "redis";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { TEST_DATABASE_URL, testSchema, type TestSchema } from "../../stores/postgres/__fixtures__/postgres-test-db.js";
import { listen, post } from "../__fixtures__/servers.js";
import { sseEvents, type SseEvent } from "../__fixtures__/sse-client.js";
import { dropPrefix, dumpValues, keysUnder, testPrefix, testRedis, TEST_REDIS_URL, type TestRedisClient } from "./__fixtures__/redis-test.js";
import { SECRETS, workflowChat } from "./__fixtures__/workflow-chat.js";
import type { TurnStreamEvent } from "../../chat/stream/turn-stream-event.js";
import { entryFields, entryId, RedisNames } from "./redis-keys.js";

let redis: TestRedisClient;
let db: TestSchema;
const prefixes: string[] = [];
beforeAll(async () => {
  redis = await testRedis();
  db = await testSchema("redis_turns");
});
afterAll(async () => {
  for (const prefix of prefixes) await dropPrefix(redis, prefix).catch(() => undefined);
  redis?.destroy();
  await db?.drop();
});

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

/** One server process's worth: a chat over its own pool, its own bus, its own http server. */
interface Server {
  base: string;
  chat: Chat;
  bus: RedisTurnEvents;
  store: PostgresStore;
  ran: { env: string }[];
}

async function server(prefix: string, options: RedisTurnEventsOptions = {}): Promise<Server> {
  const store = postgresStore({ connectionString: TEST_DATABASE_URL, schema: db.schema, max: 4 });
  const ran: { env: string }[] = [];
  const chat = workflowChat(store, (run) => ran.push(run));
  const bus = redisTurnEvents({ url: TEST_REDIS_URL }, { prefix, ...options });
  cleanups.push(() => store.close(), () => bus.close());
  const base = await listen(createChatHandler(chat, { turnEvents: bus, keepAliveMs: 0 }));
  return { base, chat, bus, store, ran };
}

/** Two servers sharing one prefix. */
async function pair(options: RedisTurnEventsOptions = {}) {
  const prefix = testPrefix("pair");
  prefixes.push(prefix);
  const a = await server(prefix, options);
  const b = await server(prefix, options);
  return { a, b, prefix };
}

async function createSession(base: string): Promise<string> {
  const response = await post(`${base}/sessions`);
  expect(response.status).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

/** Starts a turn on a server; its own events are read in the background. */
async function startTurn(base: string, sessionId: string) {
  const response = await post(`${base}/sessions/${sessionId}/turns`, { input: "Deploy to staging" });
  expect(response.status).toBe(200);
  const turnId = response.headers.get("x-june-turn-id")!;
  const events = collect(response);
  return { turnId, events };
}

async function collect(response: Response, onEvent: (event: SseEvent) => Promise<void> | void = () => {}): Promise<SseEvent[]> {
  expect(response.status).toBe(200);
  const events: SseEvent[] = [];
  for await (const event of sseEvents(response)) {
    events.push(event);
    await onEvent(event);
  }
  return events;
}

describe("redisTurnEvents across two servers", () => {
  it("serves a turn running on A through B: from the start, after Last-Event-ID, and approves it there", async () => {
    const { a, b } = await pair();
    const sessionId = await createSession(a.base);
    const { turnId, events: fromA } = await startTurn(a.base, sessionId);

    const joined = await fetch(`${b.base}/turns/${turnId}/events`);
    expect(joined.status).toBe(200);
    expect(joined.headers.get("x-june-session-id")).toBe(sessionId);
    const decisions: Response[] = [];
    const fromB = await collect(joined, async (event) => {
      if (event.event !== "approval-request") return;
      expect(a.ran).toEqual([]);
      // The session read through B shows the turn running on A.
      const session = (await (await fetch(`${b.base}/sessions/${sessionId}`)).json()) as { runningTurnId?: string };
      expect(session.runningTurnId).toBe(turnId);
      decisions.push(await post(`${b.base}/sessions/${sessionId}/turns/${turnId}/approve`, { approvalId: event.data.request.id }));
    });

    expect(decisions.map((r) => r.status)).toEqual([200]);
    expect(await decisions[0].json()).toEqual({ ok: true });
    expect(a.ran).toEqual([{ env: "staging" }]);
    expect(b.ran).toEqual([]);
    const own = await fromA;
    // B sent what A sent: the same ids, types and data.
    expect(fromB).toEqual(own);
    expect(fromB.map((e) => Number(e.id))).toEqual(fromB.map((_, i) => i));
    expect(fromB[0].data).toEqual({ type: "turn-start", turnId, sessionId });
    expect(fromB.at(-1)!.data).toMatchObject({ type: "turn-end", status: "completed", text: "Staging is live." });
    expect(fromB.filter((e) => e.event === "text-delta").map((e) => e.data.text).join("")).toBe("Staging is live.");

    // Rejoined through B after the turn ended: all of it, or the rest after Last-Event-ID.
    expect(await collect(await fetch(`${b.base}/turns/${turnId}/events`))).toEqual(own);
    const after = await collect(await fetch(`${b.base}/turns/${turnId}/events`, { headers: { "last-event-id": "2" } }));
    expect(after).toEqual(own.slice(3));
    expect(await collect(await fetch(`${b.base}/turns/${turnId}/events?lastEventId=${own.length - 1}`))).toEqual([]);

    // Decided once: a second approval through B is refused.
    const again = await post(`${b.base}/sessions/${sessionId}/turns/${turnId}/approve`, { approvalId: "approval-x" });
    expect(again.status).toBe(409);
    // The journal, read through B, has the turn as A ended it.
    const session = (await (await fetch(`${b.base}/sessions/${sessionId}`)).json()) as { turns: { id: string; status: string }[]; runningTurnId?: string };
    expect(session.turns).toEqual([expect.objectContaining({ id: turnId, status: "completed", text: "Staging is live." })]);
    expect(session.runningTurnId).toBeUndefined();
  });

  it("rejoins a running turn through B after Last-Event-ID, while it waits", async () => {
    const { a, b } = await pair();
    const sessionId = await createSession(a.base);
    const { turnId, events: fromA } = await startTurn(a.base, sessionId);
    // Wait until the approval request is in Redis, then reconnect through B after event 1.
    let request: { id: string } | undefined;
    const first = await fetch(`${b.base}/turns/${turnId}/events`);
    const seen: SseEvent[] = [];
    for await (const event of sseEvents(first)) {
      seen.push(event);
      if (event.event === "approval-request") {
        request = event.data.request;
        break;
      }
    }
    const resumed = await fetch(`${b.base}/turns/${turnId}/events`, { headers: { "last-event-id": "1" } });
    const rest = collect(resumed);
    expect((await post(`${b.base}/sessions/${sessionId}/turns/${turnId}/approve`, { approvalId: request!.id })).status).toBe(200);
    const own = await fromA;
    expect(await rest).toEqual(own.slice(2));
    expect(seen).toEqual(own.slice(0, seen.length));
  });

  it("denies, steers and cancels through B: the owner applies each and answers as it would itself", async () => {
    const { a, b } = await pair();
    const sessionId = await createSession(a.base);

    // Deny.
    const denied = await startTurn(a.base, sessionId);
    const deniedEvents = await collect(await fetch(`${b.base}/turns/${denied.turnId}/events`), async (event) => {
      if (event.event !== "approval-request") return;
      const response = await post(`${b.base}/sessions/${sessionId}/turns/${denied.turnId}/deny`, { approvalId: event.data.request.id, reason: "not today" });
      expect(response.status).toBe(200);
    });
    expect(a.ran).toEqual([]);
    const deniedRows = JSON.stringify(deniedEvents.filter((e) => e.event === "run-update").at(-1)!.data.rows);
    expect(deniedRows).toContain("not today");
    await denied.events;

    // Steer and cancel a turn waiting for approval.
    const canceled = await startTurn(a.base, sessionId);
    const canceledEvents = await collect(await fetch(`${b.base}/turns/${canceled.turnId}/events`), async (event) => {
      if (event.event !== "approval-request") return;
      // Steer: whatever the owner answers, B answers the same.
      const viaB = await post(`${b.base}/sessions/${sessionId}/turns/${canceled.turnId}/steer`, { input: "also run the tests" });
      const viaA = await post(`${a.base}/sessions/${sessionId}/turns/${canceled.turnId}/steer`, { input: "also run the tests" });
      expect(viaB.status).toBe(viaA.status);
      const [bodyB, bodyA] = [await viaB.json(), await viaA.json()];
      expect(Object.keys(bodyB as object).sort()).toEqual(Object.keys(bodyA as object).sort());
      // Bad bodies are refused by B itself.
      expect((await post(`${b.base}/sessions/${sessionId}/turns/${canceled.turnId}/steer`, { input: "" })).status).toBe(400);
      expect((await post(`${b.base}/sessions/${sessionId}/turns/${canceled.turnId}/approve`, { nope: 1 })).status).toBe(400);
      // An approval id the owner does not know: its 409, relayed.
      const unknown = await post(`${b.base}/sessions/${sessionId}/turns/${canceled.turnId}/approve`, { approvalId: "no-such-approval" });
      expect(unknown.status).toBe(409);
      expect(((await unknown.json()) as { error: string }).error).toMatch(/No pending approval "no-such-approval"/);
      expect((await post(`${b.base}/sessions/${sessionId}/turns/${canceled.turnId}/cancel`)).status).toBe(200);
    });
    expect(canceledEvents.at(-1)!.data).toMatchObject({ type: "turn-end", status: "canceled" });
    await canceled.events;
    expect(a.ran).toEqual([]);
    const again = await post(`${b.base}/sessions/${sessionId}/turns/${canceled.turnId}/cancel`);
    expect(again.status).toBe(409);
    const turns = await (await a.chat.openSession(sessionId)).turns();
    expect(turns.map((t) => t.status)).toEqual(["completed", "canceled"]);
    await expect(fetch(`${b.base}/turns/no-such-turn/events`).then((r) => r.status)).resolves.toBe(404);
    await expect(post(`${b.base}/sessions/${sessionId}/turns/no-such-turn/cancel`).then((r) => r.status)).resolves.toBe(404);
  });

  it("keeps a waiting turn's keys alive past the TTL, expires them after its end, and stores no secret", async () => {
    const { a, b, prefix } = await pair({ ttlSeconds: 2 });
    const sessionId = await createSession(a.base);
    const { turnId, events: fromA } = await startTurn(a.base, sessionId);
    const fromB = collect(await fetch(`${b.base}/turns/${turnId}/events`), async (event) => {
      if (event.event !== "approval-request") return;
      // Longer than the TTL: the owner renews the keys while the turn waits.
      await sleep(2600);
      expect((await post(`${b.base}/sessions/${sessionId}/turns/${turnId}/approve`, { approvalId: event.data.request.id })).status).toBe(200);
    });
    expect(await fromB).toEqual(await fromA);

    const turnKey = `${prefix}turn:${turnId}`;
    const eventsKey = `${prefix}turn:${turnId}:events`;
    for (const key of [turnKey, eventsKey]) {
      const ttl = await redis.ttl(key);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(2);
    }
    expect(await redis.hGetAll(turnKey)).toMatchObject({ sessionId, owner: a.bus.processId, ended: "completed" });
    expect(await redis.exists(`${prefix}session:${sessionId}:running`)).toBe(0);
    // Each entry carries its SSE event id.
    const entries = (await redis.sendCommand(["XRANGE", eventsKey, "-", "+"])) as [string, string[]][];
    expect(entries.map(([id, fields]) => [id, fields[1]])).toEqual(entries.map((_, i) => [`0-${i + 1}`, String(i)]));

    const stored = await dumpValues(redis, prefix);
    expect(stored).toContain("Staging is live.");
    for (const secret of SECRETS) expect(stored).not.toContain(secret);
    expect(stored).toContain("[redacted]");
    expect(stored).not.toMatch(/apiKey\\*":\\*"(?!\[redacted\])/);

    await expect.poll(() => redis.exists([turnKey, eventsKey]), { timeout: 5000, interval: 200 }).toBe(0);
    expect((await fetch(`${b.base}/turns/${turnId}/events`)).status).toBe(404);
  });

  it("answers 504 when the turn's owner is gone or silent, and ends B's stream without a turn-end", async () => {
    const { a, b, prefix } = await pair({ controlTimeoutMs: 300, blockMs: 100, presenceTtlMs: 1500 });
    const sessionId = await createSession(a.base);
    const { turnId, events: fromA } = await startTurn(a.base, sessionId);
    let approvalId = "";
    for await (const event of sseEvents(await fetch(`${b.base}/turns/${turnId}/events`))) {
      if (event.event === "approval-request") {
        approvalId = event.data.request.id;
        break;
      }
    }

    // A silent listener on A's channel: B's request is heard but never answered.
    const silent = createClient({ url: TEST_REDIS_URL });
    silent.on("error", () => undefined);
    await silent.connect();
    cleanups.push(() => silent.close());
    await silent.subscribe(`${prefix}control:${a.bus.processId}`, () => undefined);
    const following = collect(await fetch(`${b.base}/turns/${turnId}/events`, { headers: { "last-event-id": "0" } }));
    await a.bus.close();
    // A control routed to the turn's owner times out; an approval (the session's route) finds the session held.
    expect((await post(`${b.base}/sessions/${sessionId}/turns/${turnId}/approve`, { approvalId })).status).toBe(409);
    const timedOut = await post(`${b.base}/sessions/${sessionId}/turns/${turnId}/steer`, { input: "still there?" });
    expect(timedOut.status).toBe(504);
    expect(timedOut.headers.get("content-type")).toMatch(/application\/json/);
    expect(((await timedOut.json()) as { error: string }).error).toMatch(/did not answer/);

    // Nobody listening at all.
    await silent.unsubscribe();
    const gone = await post(`${b.base}/sessions/${sessionId}/turns/${turnId}/steer`, { input: "anyone?" });
    expect(gone.status).toBe(504);
    expect(((await gone.json()) as { error: string }).error).toMatch(/is gone/);
    // A cancel does not wait on a process whose presence lapsed: the turn is not running anywhere B can see,
    // and ending it parked finds the session held (A's lease), as the approval did.
    expect((await post(`${b.base}/sessions/${sessionId}/turns/${turnId}/cancel`)).status).toBe(409);

    // A's presence lapsed: B's reader stops instead of waiting forever.
    const seen = await following;
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.some((e) => e.event === "turn-end")).toBe(false);
    const session = (await (await fetch(`${b.base}/sessions/${sessionId}`)).json()) as { runningTurnId?: string };
    expect(session.runningTurnId).toBeUndefined();

    // A itself still runs the turn and takes its controls.
    expect((await post(`${a.base}/sessions/${sessionId}/turns/${turnId}/cancel`)).status).toBe(200);
    expect((await fromA).at(-1)!.data).toMatchObject({ status: "canceled" });
    expect(await keysUnder(redis, prefix)).toContain(`${prefix}turn:${turnId}`);
  });

  it("takes a node-redis client of yours and leaves it open", async () => {
    const prefix = testPrefix("client");
    prefixes.push(prefix);
    const client = createClient({ url: TEST_REDIS_URL });
    client.on("error", () => undefined);
    cleanups.push(() => client.close());
    const bus = redisTurnEvents({ client }, { prefix });
    await bus.ready();
    expect(client.isOpen).toBe(true);
    expect(await redis.exists(`${prefix}process:${bus.processId}`)).toBe(1);
    expect(await bus.find("nothing-here")).toBeUndefined();
    await bus.close();
    expect(client.isOpen).toBe(true);
    expect(await redis.exists(`${prefix}process:${bus.processId}`)).toBe(0);
  });

  it("without Redis, turns still run and are served here; other turns get a 503", async () => {
    const errors: unknown[] = [];
    // Nothing listens on port 1.
    const bus = redisTurnEvents({ url: "redis://127.0.0.1:1" }, { commandTimeoutMs: 300, onError: (error) => errors.push(error) });
    cleanups.push(() => bus.close());
    const store = postgresStore({ connectionString: TEST_DATABASE_URL, schema: db.schema, max: 2 });
    cleanups.push(() => store.close());
    const ran: { env: string }[] = [];
    const base = await listen(createChatHandler(workflowChat(store, (run) => ran.push(run)), { turnEvents: bus, keepAliveMs: 0 }));
    const sessionId = await createSession(base);
    const { turnId, events } = await startTurn(base, sessionId);
    const rejoined = await collect(await fetch(`${base}/turns/${turnId}/events`), async (event) => {
      if (event.event === "approval-request") expect((await post(`${base}/sessions/${sessionId}/turns/${turnId}/approve`, { approvalId: event.data.request.id })).status).toBe(200);
    });
    expect(rejoined).toEqual(await events);
    expect(ran).toEqual([{ env: "staging" }]);
    const elsewhere = await fetch(`${base}/turns/some-other-turn/events`);
    expect(elsewhere.status).toBe(503);
    expect(await elsewhere.json()).toEqual({ error: "The turns of other processes cannot be reached right now" });
    // A page reload still loads, with the journal's view.
    const reloaded = await fetch(`${base}/sessions/${sessionId}/ui-messages`);
    expect(reloaded.status).toBe(200);
    expect(await reloaded.json()).toEqual([
      expect.objectContaining({ id: `${turnId}-user`, role: "user" }),
      expect.objectContaining({ id: turnId, role: "assistant", metadata: { turnStatus: "completed" } }),
    ]);
    expect(errors.length).toBeGreaterThan(0);
  });

  it("reads a turn's events so far past a batch of entries, skipping entries that are not events, without waiting for more", async () => {
    const prefix = testPrefix("so-far");
    prefixes.push(prefix);
    const names = new RedisNames(prefix);
    const bus = redisTurnEvents({ url: TEST_REDIS_URL }, { prefix });
    cleanups.push(() => bus.close());
    await redis.hSet(names.turn("t-so-far"), { sessionId: "s-so-far", owner: "another-process" });
    const key = names.events("t-so-far");
    const writes: Promise<unknown>[] = [];
    for (let index = 0; index < 600; index++) {
      const event: TurnStreamEvent = index === 0 ? { type: "turn-start", turnId: "t-so-far", sessionId: "s-so-far" } : { type: "text-delta", text: `w${index} ` };
      // One entry (in the second batch) is another writer's: read past, never returned.
      const fields = index === 300 ? ["id", "not-an-index", "data", "{}"] : entryFields(index, event);
      writes.push(redis.sendCommand(["XADD", key, entryId(index), ...fields]));
    }
    await Promise.all(writes);
    const turn = (await bus.find("t-so-far"))!;
    const all = await turn.readSoFar!(0);
    expect(all.map((e) => e.index)).toEqual([...Array(600).keys()].filter((i) => i !== 300));
    expect(all[0]!.event).toEqual({ type: "turn-start", turnId: "t-so-far", sessionId: "s-so-far" });
    expect((await turn.readSoFar!(590)).map((e) => e.index)).toEqual([...Array(10).keys()].map((i) => 590 + i));
    // No turn-end: what is there now, not a wait for the end.
    expect(await (await bus.find("t-so-far"))!.readSoFar!(600)).toEqual([]);
  });

  it("refuses bad options with errors that name them", () => {
    expect(() => redisTurnEvents({ url: "http://localhost" })).toThrow(/redis:\/\/ or rediss:\/\//);
    expect(() => redisTurnEvents({ client: {} as never })).toThrow(/node-redis client/);
    expect(() => redisTurnEvents({ url: TEST_REDIS_URL }, { ttlSeconds: 0 })).toThrow(/ttlSeconds must be a whole number/);
    expect(() => redisTurnEvents({ url: TEST_REDIS_URL }, { maxEvents: 1.5 })).toThrow(/maxEvents/);
  });
});
