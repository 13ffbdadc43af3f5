/**
 * Real processes: two child processes, each a `june/server` with a workflow chat over one PostgreSQL schema
 * and `redisTurnEvents` over one Redis prefix. A turn started on A is followed, approved and canceled
 * through B; A killed mid-turn makes B answer 504 and end its stream.
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { killLineChildren, spawnLineChild, type LineChild } from "../../__fixtures__/line-child.js";
import { TEST_DATABASE_URL, testSchema, type TestSchema } from "../../stores/postgres/__fixtures__/postgres-test-db.js";
import type { UIMessage } from "ai";
import { post } from "../__fixtures__/servers.js";
import { sseEvents, type SseEvent } from "../__fixtures__/sse-client.js";
import { answer, assemble, collectChunks, sendUi, uiText, uiTransport } from "../__fixtures__/ui-client.js";
import { dropPrefix, dumpValues, testPrefix, testRedis, TEST_REDIS_URL, type TestRedisClient } from "./__fixtures__/redis-test.js";
import { SECRETS } from "./__fixtures__/workflow-chat.js";

const packageDir = fileURLToPath(new URL("../../..", import.meta.url));
const fixture = (name: string) => fileURLToPath(new URL(`./__fixtures__/${name}`, import.meta.url));

let redis: TestRedisClient;
let db: TestSchema;
const prefix = testPrefix("procs");

beforeAll(async () => {
  redis = await testRedis();
  db = await testSchema("redis_procs");
});
afterAll(async () => {
  killLineChildren();
  await dropPrefix(redis, prefix).catch(() => undefined);
  redis?.destroy();
  await db?.drop();
});

interface ServerProcess {
  base: string;
  processId: string;
  child: LineChild["child"];
  /** Every line the process printed after its address. */
  lines: unknown[];
  exited: Promise<void>;
}

async function startServer(): Promise<ServerProcess> {
  const options = { databaseUrl: TEST_DATABASE_URL, schema: db.schema, redisUrl: TEST_REDIS_URL, prefix, presenceTtlMs: 3000, blockMs: 150 };
  const { child, exited, next } = spawnLineChild(fixture("server-process.tsx"), [JSON.stringify(options)]);
  const { url, processId } = JSON.parse(await next()) as { url: string; processId: string };
  const server: ServerProcess = { base: url, processId, child, lines: [], exited };
  void (async () => {
    // Every line after the address, until the process ends (`next` rejects then).
    for (;;) server.lines.push(JSON.parse(await next()));
  })().catch(() => {});
  return server;
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

async function newSession(base: string): Promise<string> {
  const response = await post(`${base}/sessions`);
  expect(response.status).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

async function startTurn(base: string, sessionId: string) {
  const response = await post(`${base}/sessions/${sessionId}/turns`, { input: "Deploy to staging" });
  expect(response.status).toBe(200);
  return { turnId: response.headers.get("x-june-turn-id")!, events: collect(response) };
}

describe("redisTurnEvents across two server processes", () => {
  let a: ServerProcess;
  let b: ServerProcess;
  beforeAll(async () => {
    [a, b] = await Promise.all([startServer(), startServer()]);
    expect(a.processId).not.toBe(b.processId);
  }, 60_000);

  it("follows a turn of A through B from the start and after Last-Event-ID; approving through B runs the tool on A", async () => {
    const sessionId = await newSession(a.base);
    const { turnId, events: fromA } = await startTurn(a.base, sessionId);
    const fromB = await collect(await fetch(`${b.base}/turns/${turnId}/events`), async (event) => {
      if (event.event !== "approval-request") return;
      expect(a.lines).toEqual([]);
      const approved = await post(`${b.base}/sessions/${sessionId}/turns/${turnId}/approve`, { approvalId: event.data.request.id });
      expect(approved.status).toBe(200);
    });
    const own = await fromA;
    expect(fromB).toEqual(own);
    expect(own.at(-1)!.data).toMatchObject({ type: "turn-end", status: "completed", text: "Staging is live." });
    // The tool ran in A, once, and nowhere else.
    await expect.poll(() => a.lines).toEqual([{ ran: { env: "staging" } }]);
    expect(b.lines).toEqual([]);

    const after = await collect(await fetch(`${b.base}/turns/${turnId}/events`, { headers: { "last-event-id": "3" } }));
    expect(after).toEqual(own.slice(4));
    const session = (await (await fetch(`${b.base}/sessions/${sessionId}`)).json()) as { turns: { id: string; status: string }[] };
    expect(session.turns).toEqual([expect.objectContaining({ id: turnId, status: "completed" })]);
  });

  it("cancels a turn of A through B", async () => {
    const sessionId = await newSession(a.base);
    const { turnId, events: fromA } = await startTurn(a.base, sessionId);
    const fromB = await collect(await fetch(`${b.base}/turns/${turnId}/events`), async (event) => {
      if (event.event === "approval-request") expect((await post(`${b.base}/sessions/${sessionId}/turns/${turnId}/cancel`)).status).toBe(200);
    });
    expect(fromB.at(-1)!.data).toMatchObject({ type: "turn-end", status: "canceled" });
    expect(fromB).toEqual(await fromA);
    expect((await post(`${b.base}/sessions/${sessionId}/turns/${turnId}/cancel`)).status).toBe(409);
    const [turn] = await (await fetch(`${a.base}/sessions/${sessionId}`)).json().then((s: { turns: { status: string }[] }) => s.turns);
    expect(turn.status).toBe("canceled");
  });

  it("a page reloaded on B while A's turn waits for approval: B's ui-messages show A's live message, and answering it through B continues it", async () => {
    const sessionId = await newSession(a.base);
    const { turnId, events: fromA } = await startTurn(a.base, sessionId);
    const uiMessages = async (base: string) => {
      const response = await fetch(`${base}/sessions/${sessionId}/ui-messages`);
      expect(response.status).toBe(200);
      const text = await response.text();
      for (const secret of SECRETS) expect(text).not.toContain(secret);
      return JSON.parse(text) as UIMessage[];
    };
    const waiting = (messages: UIMessage[]) => messages[1]?.parts.some((p) => p.type === "dynamic-tool" && p.state === "approval-requested");
    // A (where the turn runs) shows the request; B shows the same, read from the turn's Redis stream.
    await expect.poll(async () => waiting(await uiMessages(a.base)), { timeout: 5000 }).toBe(true);
    // (Polled: A's copy into Redis may be a write behind what A shows.)
    const onA = await uiMessages(a.base);
    await expect.poll(() => uiMessages(b.base), { timeout: 5000 }).toEqual(onA);
    const onB = await uiMessages(b.base);
    expect(onB.map((m) => m.id)).toEqual([`${turnId}-user`, turnId]);
    expect(onB[1]).toMatchObject({ role: "assistant", metadata: { turnStatus: "running" } });
    expect(onB[1]!.parts.find((p) => p.type === "dynamic-tool")).toMatchObject({ toolName: "deploy", state: "approval-requested" });

    // useChat({ messages: onB }) answers the request: through B, to the turn on A, and the same message goes on.
    const answered = answer(onB[1]!, true);
    const rest = await collectChunks(await sendUi(uiTransport(b.base), sessionId, [onB[0]!, answered]));
    expect(rest.at(-1)).toMatchObject({ type: "finish", finishReason: "stop" });
    const final = await assemble(rest, answered);
    expect(final.id).toBe(turnId);
    expect(final.parts.find((p) => p.type === "dynamic-tool")).toMatchObject({ state: "output-available" });
    expect(uiText(final)).toBe(`${uiText(onB[1]!)}Staging is live.`);
    for (const secret of SECRETS) expect(JSON.stringify(rest)).not.toContain(secret);
    expect((await fromA).at(-1)!.data).toMatchObject({ type: "turn-end", status: "completed" });
    await expect.poll(() => a.lines.filter((line) => JSON.stringify(line).includes("ran"))).toHaveLength(2);
    expect(b.lines).toEqual([]);
    // Ended: both show the journal's message.
    expect(await uiMessages(b.base)).toEqual(await uiMessages(a.base));
  });

  it("an edit approved through B reaches A with its input, checked there: a bad one is a 400 through B, the shown one runs on A with its hidden key", async () => {
    const sessionId = await newSession(a.base);
    const { turnId, events: fromA } = await startTurn(a.base, sessionId);
    const statuses: number[] = [];
    await collect(await fetch(`${b.base}/turns/${turnId}/events`), async (event) => {
      if (event.event !== "approval-request") return;
      const { id, inputValue } = event.data.request;
      expect(inputValue).toEqual({ env: "staging", apiKey: "[redacted]", note: "with [redacted]" });
      const bad = await post(`${b.base}/sessions/${sessionId}/turns/${turnId}/approve`, { approvalId: id, input: { ...inputValue, env: 5 } });
      statuses.push(bad.status);
      expect((await bad.json()).error).toContain("input.env must be string");
      const edited = await post(`${b.base}/sessions/${sessionId}/turns/${turnId}/approve`, { approvalId: id, input: { ...inputValue, env: "qa" } });
      statuses.push(edited.status);
      await edited.text();
    });
    expect(statuses).toEqual([400, 200]);
    expect((await fromA).at(-1)!.data).toMatchObject({ type: "turn-end", status: "completed" });
    // On A, with the edit; before, B's approve dropped the input and A ran the model's "staging".
    await expect.poll(() => a.lines).toContainEqual({ ran: { env: "qa" } });
  });

  it("stores every event redacted: no key in any Redis value", async () => {
    const stored = await dumpValues(redis, prefix);
    expect(stored).toContain("approval-request");
    for (const secret of SECRETS) expect(stored).not.toContain(secret);
    expect(stored).not.toMatch(/apiKey\\*":\\*"(?!\[redacted\])/);
  });

  it("answers 504 through B once A is killed mid-turn, and ends B's stream without a turn-end", async () => {
    const sessionId = await newSession(a.base);
    const { turnId, events: fromA } = await startTurn(a.base, sessionId);
    // A's own response breaks off when A dies.
    const broken = fromA.then(
      () => false,
      () => true,
    );
    let approvalId = "";
    const following = collect(await fetch(`${b.base}/turns/${turnId}/events`), async (event) => {
      if (event.event !== "approval-request") return;
      approvalId = event.data.request.id;
      a.child.kill("SIGKILL");
    });
    const seen = await following;
    await a.exited;
    expect(await broken).toBe(true);
    expect(approvalId).not.toBe("");
    expect(seen.some((e) => e.event === "turn-end")).toBe(false);

    // The session is still held by A's lease: the approval says busy; a control routed to A says it is gone.
    expect((await post(`${b.base}/sessions/${sessionId}/turns/${turnId}/approve`, { approvalId })).status).toBe(409);
    const response = await post(`${b.base}/sessions/${sessionId}/turns/${turnId}/steer`, { input: "still there?" });
    expect(response.status).toBe(504);
    expect(((await response.json()) as { error: string }).error).toMatch(/is gone/);
    // The journal keeps the turn A never ended; B does not report it running.
    const session = (await (await fetch(`${b.base}/sessions/${sessionId}`)).json()) as { turns: { status: string }[]; runningTurnId?: string };
    expect(session.turns.map((t) => t.status)).toEqual(["interrupted"]);
    expect(session.runningTurnId).toBeUndefined();
  });
});

describe("june/server/redis without the redis package", () => {
  it("imports, and names the package to install when a bus is made", async () => {
    const entry = new URL("./index.ts", import.meta.url).href;
    // The error class is june/chat's (the stores' errors), not re-exported by june/server/redis.
    const errors = new URL("../../stores/errors.ts", import.meta.url).href;
    const script = `
      const m = await import(${JSON.stringify(entry)});
      const { StoreDriverMissingError } = await import(${JSON.stringify(errors)});
      try { m.redisTurnEvents({ url: "redis://127.0.0.1:6379" }); console.log(JSON.stringify({ made: true })); }
      catch (e) { console.log(JSON.stringify({ name: e.name, packageName: e.packageName, message: e.message, isInstance: StoreDriverMissingError.isInstance(e) })); }`;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["--require", fixture("hide-redis.cjs"), "--import", "tsx", "--input-type=module", "-e", script],
      { cwd: packageDir },
    );
    const result = JSON.parse(stdout);
    expect(result).toMatchObject({ name: "StoreDriverMissingError", packageName: "redis", isInstance: true });
    expect(result.message).toMatch(/redisTurnEvents needs the "redis" package.*npm install redis@6/);
  });
});
