/**
 * `useChat({ resume: true })` across two handlers (each with its own chat, PostgreSQL pool and Redis bus,
 * sharing sessions and turns): the turn runs on A, the reloaded page's reconnect reaches B, which replays
 * the turn's message from its start and follows it; its stop route, also on B, cancels the turn on A.
 */
import { DefaultChatTransport, type UIMessage } from "ai";
import { createChat, type Responder, type TurnEvent, type ResponderResult } from "june/chat";
import { createChatHandler } from "june/server";
import { redisTurnEvents } from "june/server/redis";
import { postgresStore } from "june/chat";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { TEST_DATABASE_URL, testSchema, type TestSchema } from "../../stores/postgres/__fixtures__/postgres-test-db.js";
import { listen } from "../__fixtures__/servers.js";
import { assemble, collectChunks, sendUi, uiText, user } from "../__fixtures__/ui-client.js";
import { dropPrefix, testPrefix, testRedis, TEST_REDIS_URL, type TestRedisClient } from "./__fixtures__/redis-test.js";

let redis: TestRedisClient;
let db: TestSchema;
const prefix = testPrefix("uiresume");
beforeAll(async () => {
  redis = await testRedis();
  db = await testSchema("redis_ui_resume");
});
afterAll(async () => {
  await dropPrefix(redis, prefix).catch(() => undefined);
  redis?.destroy();
  await db?.drop();
});

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

/** Writes a word every 20 ms until it is canceled (at most 500). */
function wordsResponder(): Responder {
  return {
    kind: "custom",
    id: "words",
    respond({ signal }) {
      let text = "";
      let finish!: (result: ResponderResult) => void;
      let fail!: (error: unknown) => void;
      const result = new Promise<ResponderResult>((resolve, reject) => {
        finish = resolve;
        fail = reject;
      });
      result.catch(() => {});
      async function* events(): AsyncGenerator<TurnEvent> {
        for (let i = 0; i < 500 && !signal.aborted; i++) {
          text += `w${i} `;
          yield { type: "text-delta", text: `w${i} ` };
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        if (signal.aborted) fail(signal.reason);
        else finish({ text });
      }
      return { result, events: events() };
    },
  };
}

/** One server process's worth over the shared schema and prefix; a closed request leaves its turn running. */
async function server(): Promise<{ base: string; transport: DefaultChatTransport<UIMessage> }> {
  const store = postgresStore({ connectionString: TEST_DATABASE_URL, schema: db.schema, max: 4 });
  const bus = redisTurnEvents({ url: TEST_REDIS_URL }, { prefix });
  cleanups.push(() => store.close(), () => bus.close());
  const chat = createChat({ store, responder: wordsResponder() });
  const base = await listen(createChatHandler(chat, { turnEvents: bus, keepAliveMs: 0, uiChat: { cancelOnDisconnect: false } }));
  return { base, transport: new DefaultChatTransport<UIMessage>({ api: `${base}/ui-chat` }) };
}

describe("useChat's resume across processes (redisTurnEvents)", () => {
  it("B replays and follows the turn running on A, B's stop route cancels it there, then nothing resumes", async () => {
    const a = await server();
    const b = await server();

    // The page's request to A goes away mid-reply (a reload); the turn runs on.
    const closed = new AbortController();
    const before = await collectChunks(await sendUi(a.transport, "ui-resume", [user("u1", "Go")], closed.signal), (chunk) => {
      if (chunk.type === "text-delta") closed.abort();
    });
    const turnId = (before[0] as { messageId?: string }).messageId;
    expect(turnId).toBeTypeOf("string");

    // The reloaded page's reconnect reaches B: the message from its first word, then the words as they come.
    const stream = await b.transport.reconnectToStream({ chatId: "ui-resume" });
    expect(stream).not.toBeNull();
    let deltas = 0;
    let stopped: Promise<Response> | undefined;
    const chunks = await collectChunks(stream!, (chunk) => {
      if (chunk.type === "text-delta" && ++deltas === 8) stopped = fetch(`${b.base}/ui-chat/ui-resume/stop`, { method: "POST" });
    });
    const response = await stopped!;
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true, turnId });
    expect(chunks[0]).toEqual({ type: "start", messageId: turnId });
    expect(chunks.some((chunk) => chunk.type === "abort")).toBe(true);
    const message = await assemble(chunks);
    expect(message.id).toBe(turnId);
    expect(uiText(message)).toMatch(/^w0 w1 w2 w3 w4 w5 w6 w7 /);
    expect(uiText(message)).not.toContain("w499");

    // Nothing runs now, on either side.
    expect(await a.transport.reconnectToStream({ chatId: "ui-resume" })).toBeNull();
    expect(await b.transport.reconnectToStream({ chatId: "ui-resume" })).toBeNull();
    expect((await fetch(`${b.base}/ui-chat/ui-resume/stop`, { method: "POST" })).status).toBe(204);
  });
});
