/**
 * `/ui-chat` across two handlers (each with its own chat, PostgreSQL pool and Redis bus, sharing sessions
 * and turns): the turn starts and runs on A; the client's approval, and its `stop()`, arrive at B. B holds
 * no state of the reply (the client's message is where the stream picks up) and reaches the turn through
 * the same control as every route, so the tool runs on A and the same assistant message continues from B.
 */
import { DefaultChatTransport, type UIMessage } from "ai";
import { createChat, type Chat, type Responder, type TurnEvent, type ResponderResult } from "june/chat";
import { createChatHandler } from "june/server";
import { redisTurnEvents, type RedisTurnEvents } from "june/server/redis";
import { postgresStore } from "june/chat";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ApprovalRequest } from "../../runtime/types.js";
import { TEST_DATABASE_URL, testSchema, type TestSchema } from "../../stores/postgres/__fixtures__/postgres-test-db.js";
import { listen } from "../__fixtures__/servers.js";
import { answer, assemble, collectChunks as collect, uiText as textOf, user } from "../__fixtures__/ui-client.js";
import { dropPrefix, testPrefix, testRedis, TEST_REDIS_URL, type TestRedisClient } from "./__fixtures__/redis-test.js";
import { SECRETS, workflowChat } from "./__fixtures__/workflow-chat.js";

let redis: TestRedisClient;
let db: TestSchema;
const prefixes: string[] = [];
beforeAll(async () => {
  redis = await testRedis();
  db = await testSchema("redis_ui_chat");
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

interface Server {
  chat: Chat;
  bus: RedisTurnEvents;
  transport: DefaultChatTransport<UIMessage>;
  ran: { env: string }[];
  /** Every response body this server's transport read, to check none holds a credential. */
  bodies: string[];
}

/** One server process's worth over the shared schema and prefix, with its own `/ui-chat` transport. */
async function server(prefix: string, makeChat: (store: ReturnType<typeof postgresStore>, ran: { env: string }[]) => Chat): Promise<Server> {
  const store = postgresStore({ connectionString: TEST_DATABASE_URL, schema: db.schema, max: 4 });
  const ran: { env: string }[] = [];
  const chat = makeChat(store, ran);
  const bus = redisTurnEvents({ url: TEST_REDIS_URL }, { prefix });
  cleanups.push(() => store.close(), () => bus.close());
  const base = await listen(createChatHandler(chat, { turnEvents: bus, keepAliveMs: 0 }));
  const bodies: string[] = [];
  const recordingFetch: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    const [a, b] = response.body!.tee();
    void new Response(b).text().then((text) => bodies.push(text), () => {});
    return new Response(a, { status: response.status, headers: response.headers });
  };
  const transport = new DefaultChatTransport<UIMessage>({ api: `${base}/ui-chat`, fetch: recordingFetch });
  return { chat, bus, transport, ran, bodies };
}

async function pair(makeChat: Parameters<typeof server>[1]) {
  const prefix = testPrefix("uichat");
  prefixes.push(prefix);
  return { a: await server(prefix, makeChat), b: await server(prefix, makeChat) };
}

const send = (transport: DefaultChatTransport<UIMessage>, chatId: string, messages: UIMessage[], abortSignal?: AbortSignal) =>
  transport.sendMessages({ chatId, messages, trigger: "submit-message", messageId: undefined, abortSignal });

/**
 * A responder that asks to run one tool, then, approved, writes a word every 20 ms until it is canceled
 * (at most 500): a turn that cannot end on its own while the test stops it.
 */
function endlessResponder(): Responder {
  return {
    kind: "custom",
    id: "endless",
    respond({ signal }) {
      const request: ApprovalRequest = { id: "approval-endless", stepId: "reply", toolName: "deploy", toolCallId: "call-endless", input: { env: "prod" } };
      let requests: ApprovalRequest[] = [request];
      let decide!: (approved: boolean) => void;
      const decision = new Promise<boolean>((resolve) => (decide = resolve));
      let finish!: (result: ResponderResult) => void;
      let fail!: (error: unknown) => void;
      const result = new Promise<ResponderResult>((resolve, reject) => {
        finish = resolve;
        fail = reject;
      });
      result.catch(() => {});
      async function* events(): AsyncGenerator<TurnEvent> {
        yield { type: "text-delta", text: "Asking. " };
        yield { type: "approval-request", request };
        const approved = await Promise.race([decision, new Promise<never>((_, reject) => signal.addEventListener("abort", () => reject(signal.reason), { once: true }))]).catch(
          (error: unknown) => {
            fail(error);
            return undefined;
          },
        );
        if (approved === undefined) return;
        let text = "Asking. ";
        for (let i = 0; i < 500 && !signal.aborted; i++) {
          text += `w${i} `;
          yield { type: "text-delta", text: `w${i} ` };
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        if (signal.aborted) fail(signal.reason);
        else finish({ text });
      }
      const settle = (approved: boolean) => {
        if (requests.length === 0) return { kind: "not-pending" as const };
        requests = [];
        decide(approved);
        return { kind: "decided" as const };
      };
      return {
        result,
        events: events(),
        get requests() {
          return requests;
        },
        decide: (_id: string, decision: { approved: boolean }) => settle(decision.approved),
      };
    },
  };
}

describe("/ui-chat across processes (redisTurnEvents)", () => {
  it("a tool approval sent to B reaches the turn running on A, and B continues the same message", async () => {
    const { a, b } = await pair((store, ran) => workflowChat(store, (run) => ran.push(run)));

    const first = await collect(await send(a.transport, "ui-remote-approve", [user("u1", "Deploy to staging")]));
    expect(first.at(-1)).toMatchObject({ type: "finish", finishReason: "tool-calls" });
    const paused = await assemble(first);
    expect(paused.parts.find((p) => p.type === "dynamic-tool")).toMatchObject({ state: "approval-requested", toolName: "deploy" });

    const answered = answer(paused, true);
    const rest = await collect(await send(b.transport, "ui-remote-approve", [user("u1", "Deploy to staging"), answered]));
    expect(rest[0]).toEqual({ type: "start", messageId: paused.id });
    expect(rest.at(-1)).toMatchObject({ type: "finish", finishReason: "stop" });
    const final = await assemble(rest, answered);
    expect(final.id).toBe(paused.id);
    expect(final.parts.find((p) => p.type === "dynamic-tool")).toMatchObject({ state: "output-available" });
    // What the client already had is not sent again; what the turn wrote after the approval is.
    expect(textOf(final)).toBe(`${textOf(paused)}Staging is live.`);

    // The tool ran where the turn runs, once; the journal (shared) says the turn completed.
    expect(a.ran).toEqual([{ env: "staging" }]);
    expect(b.ran).toEqual([]);
    const [turn] = await (await b.chat.openSession("ui-remote-approve")).turns();
    expect(turn).toMatchObject({ id: paused.id, status: "completed", text: "Staging is live." });

    // A resent answer (the client holds it until it sees the outcome) is not an error: nothing more to do.
    const again = await collect(await send(b.transport, "ui-remote-approve", [user("u1", "Deploy to staging"), answer(paused, true)]));
    expect(again.at(-1)).toMatchObject({ type: "finish" });
    expect(a.ran).toHaveLength(1);

    await expect.poll(() => a.bodies.length + b.bodies.length).toBe(3);
    for (const body of [...a.bodies, ...b.bodies]) for (const secret of SECRETS) expect(body).not.toContain(secret);
  });

  it("a denial sent to B: the tool never runs on A, and B shows it denied", async () => {
    const { a, b } = await pair((store, ran) => workflowChat(store, (run) => ran.push(run)));
    const paused = await assemble(await collect(await send(a.transport, "ui-remote-deny", [user("u1", "Deploy to staging")])));
    const answered = answer(paused, false, "not today");
    const final = await assemble(await collect(await send(b.transport, "ui-remote-deny", [user("u1", "Deploy to staging"), answered])), answered);
    expect(final.parts.find((p) => p.type === "dynamic-tool")).toMatchObject({ state: "output-denied" });
    const [turn] = await (await a.chat.openSession("ui-remote-deny")).turns();
    expect(turn.status).toBe("completed");
    expect(a.ran).toEqual([]);
    expect(b.ran).toEqual([]);
  });

  it("stop() on B's stream cancels the turn running on A", async () => {
    const { a, b } = await pair((store) => createChat({ store, responder: endlessResponder() }));
    const paused = await assemble(await collect(await send(a.transport, "ui-remote-stop", [user("u1", "Go")])));
    expect(paused.parts.find((p) => p.type === "dynamic-tool")).toMatchObject({ state: "approval-requested" });

    // Approved through B, whose stream the client stops once the turn writes again.
    const stop = new AbortController();
    const chunks = await collect(await send(b.transport, "ui-remote-stop", [user("u1", "Go"), answer(paused, true)], stop.signal), (chunk) => {
      if (chunk.type === "text-delta") stop.abort();
    });
    expect(chunks.some((chunk) => chunk.type === "text-delta")).toBe(true);

    const session = await a.chat.openSession("ui-remote-stop");
    await expect.poll(async () => (await session.turns())[0]?.status, { timeout: 10_000 }).toBe("canceled");
    expect((await session.turns())[0].text ?? "").not.toContain("w499");
  });
});
