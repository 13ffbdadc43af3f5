import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { createChat, fileStore, type Responder } from "june/chat";
import { createChatHandler, serve, type RunningServer } from "june/server";
import { serveStudio, type StudioServer } from "june/studio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seededRandom, type SeededRandom } from "../testing/__fixtures__/seeded-random.js";
import { rawRequest, type RawResponse } from "./__fixtures__/raw-http.js";

/**
 * The HTTP fuzz campaign, kept: a few thousand seeded requests (methods, paths, ids, queries, headers and
 * bodies, well-formed and not) against `createChatHandler` over `serve`, and against `serveStudio`. No
 * answer may be a 5xx or a dropped connection, no body may carry a stack trace or a path of the server's,
 * and both stay alive throughout. `JUNE_TEST_SEED=n` replays a run.
 */
const HANDLER_REQUESTS = 2_000;
const STUDIO_REQUESTS = 1_000;
const IN_FLIGHT = 4;

// Replies quickly, echoes its input (so a fuzzed input comes back through every redaction), sometimes fails.
const responder: Responder = {
  respond: ({ input }) => ({
    result: input.includes("boom") ? Promise.reject(new Error(`EACCES: permission denied, open '${process.cwd()}/x.json'`)) : Promise.resolve({ text: `echo: ${input.slice(0, 200)}` }),
  }),
};

let root: string;
let handlerServer: RunningServer;
let studio: StudioServer;
const known = { sessions: ["fz-1", "fz-2"], turns: [] as string[] };

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "june-fuzz-"));
  const staticDir = join(root, "studio");
  await rm(staticDir, { recursive: true, force: true });
  await import("node:fs/promises").then((fs) => fs.mkdir(join(staticDir, "assets"), { recursive: true }));
  await writeFile(join(staticDir, "index.html"), "<!doctype html><title>Studio</title>");
  await writeFile(join(staticDir, "assets", "app.js"), "console.log(1)");
  const chat = createChat({ responder, store: fileStore(join(root, "chat"), { fsync: false }) });
  for (const id of known.sessions) {
    const session = await chat.createSession({ id });
    const turn = session.send("hello there");
    await turn.result;
    known.turns.push(turn.id);
  }
  handlerServer = await serve({ handler: createChatHandler(chat, { maxBodyBytes: 64 * 1024, keepAliveMs: 0 }) });
  studio = await serveStudio({ chat, staticDir, handler: { maxBodyBytes: 64 * 1024, keepAliveMs: 0 } });
});

afterAll(async () => {
  await handlerServer?.close();
  await studio?.close();
  await rm(root, { recursive: true, force: true });
});

const METHODS = ["GET", "GET", "POST", "POST", "POST", "DELETE", "PUT", "PATCH", "OPTIONS", "HEAD", "TRACE", "PROPFIND", "FOO"];
const WEIRD = ["", "..", "../../etc/passwd", "%2e%2e%2f%2e%2e", "%00", "a%ZZ", "%C3%A9", "%F0%9F%92%A9", "x".repeat(300), "null", "-1", "a%20b", "a/b", "*", "%0d%0aSet-Cookie:%20x=1"];

function id(random: SeededRandom, kind: "sessions" | "turns"): string {
  return random.chance(0.6) ? random.pick(known[kind]) : random.pick(WEIRD);
}

function path(random: SeededRandom): string {
  const s = () => id(random, "sessions");
  const t = () => id(random, "turns");
  const templates = [
    () => "/sessions",
    () => `/sessions?limit=${random.pick(["1", "0", "-5", "1001", "abc", "1e3", ""])}`,
    () => `/sessions?before=${random.pick(["2024-01-01T00:00:00Z", "yesterday", "", "%00"])}`,
    () => `/sessions/${s()}`,
    () => `/sessions/${s()}/turns`,
    () => `/sessions/${s()}/turns/${t()}/feedback`,
    () => `/sessions/${s()}/turns/${t()}/${random.pick(["regenerate", "edit", "branches"])}`,
    () => `/sessions/${s()}/checkout`,
    () => `/sessions/${s()}/cases?filter=${random.pick(["all", "up", "down", "bad", ""])}${random.chance(0.2) ? "&filter=up" : ""}`,
    () => `/turns/${t()}/events${random.chance(0.3) ? `?lastEventId=${random.pick(["0", "3", "-1", "abc", "99999999999"])}` : ""}`,
    () => `/turns/${t()}/${random.pick(["approve", "deny", "cancel", "steer", "nope"])}`,
    () => "/ui-chat",
    () => `/${random.pick(WEIRD)}/${random.pick(WEIRD)}`,
    () => `//sessions///${s()}`,
  ];
  return random.pick(templates)();
}

function jsonValue(random: SeededRandom, depth = 0): unknown {
  const kinds = depth > 3 ? 5 : 8;
  switch (random.int(kinds)) {
    case 0:
      return random.pick(["hi", "", "boom", "sk-proj-AbCdEfGhIjKlMnOpQrStUvWx", "a".repeat(random.int(2_000)), "\u0000", "</script>", "postgres://u:pw@h/db"]);
    case 1:
      return random.pick([0, -1, 1.5, 1e308, Number.MAX_SAFE_INTEGER]);
    case 2:
      return random.chance(0.5);
    case 3:
      return null;
    case 4:
      return random.pick(known.turns);
    case 5:
    case 6: {
      const out: Record<string, unknown> = {};
      const keys = ["input", "id", "metadata", "approvalId", "reason", "remember", "score", "comment", "tags", "turnId", "messages", "trigger", "__proto__", "constructor", "x"];
      for (let i = random.int(4); i >= 0; i--) out[random.pick(keys)] = jsonValue(random, depth + 1);
      return out;
    }
    default:
      return Array.from({ length: random.int(4) }, () => jsonValue(random, depth + 1));
  }
}

/** A `useChat`-like body, sometimes well-formed. */
function uiChatBody(random: SeededRandom): unknown {
  const text = random.pick(["hello", "", "boom", "x".repeat(50)]);
  const message = { id: "m1", role: random.pick(["user", "user", "assistant", "system", "bogus"]), parts: random.chance(0.8) ? [{ type: "text", text }] : jsonValue(random) };
  return { id: random.chance(0.5) ? random.pick(known.sessions) : random.pick(WEIRD), trigger: random.pick(["submit-message", "submit-message", "regenerate-message", "x"]), messages: random.chance(0.8) ? [message] : jsonValue(random) };
}

function body(random: SeededRandom, target: string): { text?: string; contentType?: string } {
  const roll = random.int(10);
  if (roll === 0) return {};
  if (roll === 1) return { text: random.pick(["{", "not json", "[]", "null", '{"input":', "\u0000\u0001", "{}".repeat(100)]), contentType: "application/json" };
  if (roll === 2) return { text: "input=hi", contentType: random.pick(["application/x-www-form-urlencoded", "text/plain", "multipart/form-data; boundary=x"]) };
  // A turn whose responder fails with a file path in its message.
  if (target.endsWith("/turns") && random.chance(0.3)) return { text: JSON.stringify({ input: `boom ${random.int(100)}` }), contentType: "application/json" };
  const value = target.startsWith("/ui-chat") && random.chance(0.7) ? uiChatBody(random) : random.chance(0.5) ? { input: jsonValue(random) } : jsonValue(random);
  return { text: JSON.stringify(value), contentType: random.pick(["application/json", "application/json", "application/json; charset=utf-8", "text/json"]) };
}

/** Paths of this server that must never show in an answer. */
const SECRET_PATHS = () => [root, process.cwd(), homedir(), "node_modules", "/src/", "file://"];

function check(response: RawResponse, what: string): void {
  expect(response.status, `${what}: dropped connection`).toBeGreaterThan(0);
  expect(response.status, `${what}: ${response.status} ${response.body.slice(0, 300)}`).toBeLessThan(500);
  expect(response.body, `${what}: a stack trace`).not.toMatch(/\n\s+at .+\(|node:internal|\.(?:ts|js):\d+:\d+/);
  for (const secret of SECRET_PATHS()) expect(response.body, `${what}: shows ${secret}`).not.toContain(secret);
  expect(response.body, `${what}: a credential`).not.toContain("AbCdEfGhIjKlMnOpQrStUvWx");
}

async function fuzz(options: { base: string; count: number; seed: number; prefix: string; headers: (random: SeededRandom) => Record<string, string> }) {
  const random = seededRandom(options.seed);
  const statuses = new Map<number, number>();
  let sent = 0;
  const one = async (n: number) => {
    const method = random.pick(METHODS);
    const target = `${options.prefix}${path(random)}`;
    const { text, contentType } = method === "GET" || method === "HEAD" ? {} : body(random, target.slice(options.prefix.length));
    const headers: Record<string, string> = { ...options.headers(random) };
    if (contentType) headers["content-type"] = contentType;
    if (random.chance(0.05)) headers["last-event-id"] = random.pick(["1", "x", "-3"]);
    const what = `request ${n} (seed ${random.seed}): ${method} ${target.slice(0, 120)}`;
    const response = await rawRequest(options.base, { method, path: target, headers, ...(text !== undefined ? { body: text } : {}), timeoutMs: 15_000 });
    check(response, what);
    statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
  };
  const worker = async () => {
    while (sent < options.count) {
      const n = sent++;
      await one(n);
      if (n % 250 === 0) {
        const alive = await rawRequest(options.base, { method: "GET", path: `${options.prefix}/sessions`, headers: options.headers(seededRandom(0)) });
        expect(alive.status, `alive after request ${n}: ${alive.body.slice(0, 300)}`).toBe(200);
      }
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  return statuses;
}

describe("HTTP fuzz", () => {
  it(`${HANDLER_REQUESTS} seeded requests to createChatHandler: no 5xx, no stack trace or path, alive throughout`, async () => {
    const statuses = await fuzz({ base: handlerServer.url, count: HANDLER_REQUESTS, seed: 9_001, prefix: "", headers: () => ({}) });
    // The requests reach the routes: successes, refusals and unknown routes all show up.
    expect(statuses.get(200)).toBeGreaterThan(0);
    expect(statuses.get(400)).toBeGreaterThan(0);
    expect(statuses.get(404)).toBeGreaterThan(0);
    expect(statuses.get(405)).toBeGreaterThan(0);
    const alive = await rawRequest(handlerServer.url, { method: "GET", path: "/sessions" });
    expect(alive.status).toBe(200);
  }, 180_000);

  it(`${STUDIO_REQUESTS} seeded requests to serveStudio: no 5xx, no stack trace or path, alive throughout`, async () => {
    const host = `127.0.0.1:${studio.port}`;
    const statuses = await fuzz({
      base: studio.origin,
      count: STUDIO_REQUESTS,
      seed: 9_002,
      prefix: "/api",
      headers: (random) => {
        const headers: Record<string, string> = {};
        if (!random.chance(0.1)) headers["x-june-token"] = random.chance(0.95) ? studio.token : "wrong-token-wrong-token";
        if (random.chance(0.1)) headers.host = random.pick(["evil.example", host, "localhost", ""]);
        if (random.chance(0.1)) headers.origin = random.pick(["http://evil.example", studio.origin, "null"]);
        return headers;
      },
    });
    expect(statuses.get(200)).toBeGreaterThan(0);
    expect(statuses.get(401)).toBeGreaterThan(0);
    expect(statuses.get(403)).toBeGreaterThan(0);
    // The static side of Studio, with hostile paths.
    const random = seededRandom(9_003);
    for (let i = 0; i < 200; i++) {
      const target = random.pick(["/", "/index.html", "/assets/app.js", "/assets/../../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/assets/%00", `/${random.pick(WEIRD)}`, "/.%2e/package.json"]);
      const method = random.pick(["GET", "HEAD", "POST", "TRACE", "DELETE"]);
      const response = await rawRequest(studio.origin, { method, path: target, headers: { "x-june-token": studio.token } });
      check(response, `static ${i} (seed ${random.seed}): ${method} ${target}`);
    }
  }, 180_000);
});
