/**
 * Sessions that belong to someone, across real processes: two child processes, each a `june/server` whose
 * `authorize` answers a principal per bearer token, over one PostgreSQL schema and one Redis prefix. Alice's
 * session and her running turn live on A; bob, through B, reaches none of it, on any route; alice, through B,
 * reaches all of it.
 */
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { killLineChildren, spawnLineChild } from "../../__fixtures__/line-child.js";
import { createChat, memoryStore } from "../../chat/index.js";
import { postgresStore, type PostgresStore } from "../../stores/postgres/postgres-store.js";
import { TEST_DATABASE_URL, testSchema, type TestSchema } from "../../stores/postgres/__fixtures__/postgres-test-db.js";
import { approvalResponder } from "../__fixtures__/approval-responder.js";
import { ALICE_SECRET, clientOf, uiChatBody, walkEveryRoute } from "../__fixtures__/owners.js";
import { sseEvents } from "../__fixtures__/sse-client.js";
import { chatRouter } from "../create-chat-handler.js";
import { HandlerContext } from "../handler-context.js";
import { memoryTurnEvents } from "../turn-event-bus.js";
import { dropPrefix, testPrefix, testRedis, TEST_REDIS_URL, type TestRedisClient } from "./__fixtures__/redis-test.js";

const fixture = fileURLToPath(new URL("./__fixtures__/owner-server-process.tsx", import.meta.url));

let redis: TestRedisClient;
let db: TestSchema;
let store: PostgresStore;
const prefix = testPrefix("owners");

beforeAll(async () => {
  redis = await testRedis();
  db = await testSchema("redis_owners");
  store = postgresStore({ pool: db.pool, schema: db.schema });
});
afterAll(async () => {
  killLineChildren();
  await dropPrefix(redis, prefix).catch(() => undefined);
  redis?.destroy();
  await store?.close();
  await db?.drop();
});

async function startServer(): Promise<string> {
  const options = { databaseUrl: TEST_DATABASE_URL, schema: db.schema, redisUrl: TEST_REDIS_URL, prefix, presenceTtlMs: 3000, blockMs: 150 };
  const { next } = spawnLineChild(fixture, [JSON.stringify(options)]);
  return (JSON.parse(await next()) as { url: string }).url;
}

describe("sessions that belong to someone, over two processes sharing PostgreSQL and Redis", () => {
  it("bob, through B, reaches nothing of alice's session and running turn on A; alice, through B, reaches all", async () => {
    const [a, b] = await Promise.all([startServer(), startServer()]);
    const aliceOnA = clientOf(a, "token-alice");
    const aliceOnB = clientOf(b, "token-alice");
    const bobOnB = clientOf(b, "token-bob");

    // On A: a session whose turn completed (approved), and one whose turn runs, waiting on its approval.
    const idleId = await aliceOnA.createSession();
    const done = await aliceOnA.turn(idleId, ALICE_SECRET, { approve: true });
    const busyId = await aliceOnA.createSession();
    const live = await aliceOnA.turn(busyId, "alice's second secret plan");
    expect(live.approvalId).not.toBe("");
    expect((await store.getSession(idleId))?.owner).toBe("alice");

    const journals = async () => [await store.read(idleId), await store.read(busyId)];
    const listing = (await (await bobOnB.get("/sessions")).json()) as { sessions: unknown[] };
    expect(listing.sessions).toEqual([]);
    // The issue's own list, through B: read, ui-messages, a turn, events replay, rename, feedback, delete.
    for (const [what, response] of [
      ["read", await bobOnB.get(`/sessions/${idleId}`)],
      ["turn", await bobOnB.post(`/sessions/${idleId}/turns`, { input: "bob was here" })],
      ["events of the running turn", await bobOnB.get(`/turns/${live.turnId}/events`)],
      ["events replay", await bobOnB.get(`/turns/${done.turnId}/events`)],
      ["rename", await bobOnB.call("PUT", `/sessions/${idleId}/title`, { title: "bob was here" })],
      ["feedback", await bobOnB.post(`/sessions/${idleId}/turns/${done.turnId}/feedback`, { score: 0 })],
      ["approve", await bobOnB.post(`/sessions/${busyId}/turns/${live.turnId}/approve`, { approvalId: live.approvalId })],
      ["steer", await bobOnB.post(`/sessions/${busyId}/turns/${live.turnId}/steer`, { input: "bob was here" })],
      ["cancel", await bobOnB.post(`/sessions/${busyId}/turns/${live.turnId}/cancel`)],
      ["delete", await bobOnB.call("DELETE", `/sessions/${busyId}`)],
      ["/ui-chat", await bobOnB.post("/ui-chat", uiChatBody(idleId, "bob was here"))],
    ] as const) {
      expect(response.status, what).toBe(404);
      expect(await response.text(), what).not.toContain("secret");
    }
    // ui-messages answers a chat bob does not see, as one that does not exist yet, with no messages.
    const uiMessages = await bobOnB.get(`/sessions/${idleId}/ui-messages`);
    expect([uiMessages.status, await uiMessages.text()]).toEqual([200, "[]"]);

    // Every route the router has, through B.
    const chat = createChat({ responder: approvalResponder(), store: memoryStore() });
    const routes = chatRouter(new HandlerContext(chat, { turnEvents: memoryTurnEvents(), redact: {}, maxBodyBytes: 1 << 20, keepAliveMs: 0 })).routes();
    await walkEveryRoute({ routes, bob: bobOnB, idle: { id: idleId, turnId: done.turnId }, busy: { id: busyId, ...live }, journals });

    // Alice, through B: her sessions, her running turn's events, and its approval, which ends it on A.
    const hers = (await (await aliceOnB.get("/sessions")).json()) as { sessions: { id: string }[] };
    expect(hers.sessions.map((s) => s.id).sort()).toEqual([idleId, busyId].sort());
    const read = await aliceOnB.get(`/sessions/${idleId}`);
    expect(read.status).toBe(200);
    expect(await read.text()).toContain(ALICE_SECRET);
    const events = await aliceOnB.get(`/turns/${live.turnId}/events`);
    expect(events.status).toBe(200);
    expect((await aliceOnB.post(`/sessions/${busyId}/turns/${live.turnId}/approve`, { approvalId: live.approvalId })).status).toBe(200);
    let end: unknown;
    for await (const event of sseEvents(events)) if (event.event === "turn-end") end = event.data;
    expect(end).toMatchObject({ status: "completed" });
    const after = await store.read(busyId);
    expect(JSON.stringify(after)).not.toContain("bob was here");
  }, 90_000);
});
