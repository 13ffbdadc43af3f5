import { createChat, type Chat } from "june/chat";
import { createChatHandler, type ChatHandlerOptions } from "june/server";
import { scriptedModel, type Script } from "june/testing";
import { describe, expect, it } from "vitest";
import { listen, post } from "./__fixtures__/servers.js";
import { readSse, sseEvents, type SseEvent } from "./__fixtures__/sse-client.js";

async function setup(script: Script, options: ChatHandlerOptions = {}, chatOptions: { maxInputChars?: number } = {}) {
  const model = scriptedModel(script);
  const chat = createChat({ model, instructions: "Be brief.", ...chatOptions });
  const base = await listen(createChatHandler(chat, options));
  return { chat, model, base };
}

async function createSession(base: string): Promise<string> {
  const response = await post(`${base}/sessions`);
  expect(response.status).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

/** A slow reply: `count` deltas, each after `delay` ms. */
const slow = (count: number, delay = 20) => ({ text: Array.from({ length: count }, (_, i) => ({ text: `w${i} `, delay })) });

async function expectJsonError(response: Response, status: number, match?: RegExp) {
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toMatch(/application\/json/);
  const body = (await response.json()) as { error: unknown };
  expect(typeof body.error).toBe("string");
  if (match) expect(body.error).toMatch(match);
  return body;
}

describe("sessions", () => {
  it("creates, lists, reads and deletes sessions", async () => {
    const { base } = await setup([]);
    const created = await post(`${base}/sessions`, { id: "s-1", metadata: { project: "x" } });
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ id: "s-1", turnCount: 0, metadata: { project: "x" } });
    const other = await createSession(base);

    const list = (await (await fetch(`${base}/sessions`)).json()) as { sessions: { id: string }[] };
    expect(list.sessions.map((s) => s.id).sort()).toEqual(["s-1", other].sort());
    const limited = (await (await fetch(`${base}/sessions?limit=1`)).json()) as { sessions: unknown[] };
    expect(limited.sessions).toHaveLength(1);

    const read = await fetch(`${base}/sessions/s-1`);
    expect(read.status).toBe(200);
    expect(await read.json()).toEqual({ id: "s-1", turns: [], cost: { tokens: 0, usd: 0 } });

    const deleted = await fetch(`${base}/sessions/s-1`, { method: "DELETE" });
    expect(deleted.status).toBe(200);
    await expectJsonError(await fetch(`${base}/sessions/s-1`), 404, /s-1/);
    await expectJsonError(await fetch(`${base}/sessions/s-1`, { method: "DELETE" }), 404);
  });

  it("maps the chat's errors to statuses", async () => {
    const { base } = await setup([]);
    await createSession(base);
    await post(`${base}/sessions`, { id: "dup" });
    await expectJsonError(await post(`${base}/sessions`, { id: "dup" }), 409);
    await expectJsonError(await post(`${base}/sessions`, { id: "not valid!" }), 400, /Invalid session id/);
    await expectJsonError(await fetch(`${base}/sessions/${encodeURIComponent("../etc")}`), 400, /Invalid session id/);
    await expectJsonError(await fetch(`${base}/sessions/nope`), 404);
    await expectJsonError(await post(`${base}/sessions/nope/turns`, { input: "hi" }), 404);
  });
});

describe("turns over Server-Sent Events", () => {
  it("streams a turn's events with ids and types, ending in turn-end", async () => {
    const { base } = await setup([{ text: ["Hel", "lo ", "there"] }]);
    const id = await createSession(base);
    const response = await post(`${base}/sessions/${id}/turns`, { input: "Hi" });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const turnId = response.headers.get("x-june-turn-id");
    const events = await readSse(response);

    expect(events.map((e) => Number(e.id))).toEqual(events.map((_, i) => i));
    for (const event of events) expect(event.event).toBe(event.data.type);
    expect(events[0].data).toEqual({ type: "turn-start", turnId, sessionId: id });
    const deltas = events.filter((e) => e.event === "text-delta").map((e) => e.data.text);
    expect(deltas.join("")).toBe("Hello there");
    const end = events[events.length - 1].data;
    expect(end).toMatchObject({ type: "turn-end", status: "completed", text: "Hello there" });
    expect(end.metadata).toMatchObject({ responder: { kind: "model" }, model: { provider: "june-test", modelId: "scripted" } });

    const session = (await (await fetch(`${base}/sessions/${id}`)).json()) as { turns: { id: string; status: string; text: string }[] };
    expect(session.turns).toEqual([expect.objectContaining({ id: turnId, input: "Hi", status: "completed", text: "Hello there" })]);
  });

  it("replays a turn's events from the start, or after Last-Event-ID", async () => {
    const { base } = await setup([{ text: ["a ", "b ", "c ", "d"] }]);
    const id = await createSession(base);
    const first = await readSse(await post(`${base}/sessions/${id}/turns`, { input: "go" }));
    const turnId = first[0].data.turnId as string;

    const again = await readSse(await fetch(`${base}/turns/${turnId}/events`));
    expect(again).toEqual(first);

    const after = await readSse(await fetch(`${base}/turns/${turnId}/events`, { headers: { "last-event-id": "2" } }));
    expect(after).toEqual(first.slice(3));
    expect(after[0].id).toBe("3");
    const viaQuery = await readSse(await fetch(`${base}/turns/${turnId}/events?lastEventId=2`));
    expect(viaQuery).toEqual(first.slice(3));

    await expectJsonError(await fetch(`${base}/turns/${turnId}/events`, { headers: { "last-event-id": "x1" } }), 400, /Last-Event-ID/);
    await expectJsonError(await fetch(`${base}/turns/no-such-turn/events`), 404);
  });

  it("lets a second client join a running turn and see every event", async () => {
    const { base } = await setup([slow(6)]);
    const id = await createSession(base);
    const response = await post(`${base}/sessions/${id}/turns`, { input: "go" });
    const turnId = response.headers.get("x-june-turn-id")!;
    const session = (await (await fetch(`${base}/sessions/${id}`)).json()) as { runningTurnId?: string };
    expect(session.runningTurnId).toBe(turnId);
    const [a, b] = await Promise.all([readSse(response), readSse(await fetch(`${base}/turns/${turnId}/events`))]);
    expect(b).toEqual(a);
    expect(a.at(-1)!.data.status).toBe("completed");
  });

  it("keeps the turn running when the client disconnects, and lets it rejoin", async () => {
    const { base, chat } = await setup([slow(8)]);
    const id = await createSession(base);
    const abort = new AbortController();
    const response = await post(`${base}/sessions/${id}/turns`, { input: "go" }, { signal: abort.signal });
    const seen: SseEvent[] = [];
    for await (const event of sseEvents(response)) {
      seen.push(event);
      if (event.event === "text-delta") break;
    }
    abort.abort();
    const turnId = seen[0].data.turnId as string;

    // Rejoin after the last event seen; the turn runs on to its end.
    const rest = await readSse(await fetch(`${base}/turns/${turnId}/events`, { headers: { "last-event-id": seen.at(-1)!.id! } }));
    expect(Number(rest[0].id)).toBe(Number(seen.at(-1)!.id) + 1);
    const end = rest.at(-1)!.data;
    expect(end).toMatchObject({ type: "turn-end", status: "completed", text: "w0 w1 w2 w3 w4 w5 w6 w7 " });

    const turns = await (await chat.openSession(id)).turns();
    expect(turns).toEqual([expect.objectContaining({ id: turnId, status: "completed", text: "w0 w1 w2 w3 w4 w5 w6 w7 " })]);
  });

  it("answers 409 while a turn runs in the session", async () => {
    const { base } = await setup([slow(4), "second"]);
    const id = await createSession(base);
    const first = await post(`${base}/sessions/${id}/turns`, { input: "one" });
    await expectJsonError(await post(`${base}/sessions/${id}/turns`, { input: "two" }), 409, /busy/);
    await readSse(first);
    const second = await readSse(await post(`${base}/sessions/${id}/turns`, { input: "two" }));
    expect(second.at(-1)!.data).toMatchObject({ status: "completed", text: "second" });
  });

  it("masks a key the model writes a few characters at a time", async () => {
    const reply = "Your key is sk-proj-ABCDEFGHIJ0123456789xyz, keep it safe.";
    const deltas = reply.match(/.{1,3}/gs)!;
    const { base } = await setup([{ text: deltas }]);
    const id = await createSession(base);
    const response = await post(`${base}/sessions/${id}/turns`, { input: "key?" });
    const raw = await response.clone().text();
    expect(raw).not.toContain("0123456789");
    const events = await readSse(await fetch(`${base}/turns/${response.headers.get("x-june-turn-id")}/events`));
    const streamed = events.filter((e) => e.event === "text-delta").map((e) => e.data.text).join("");
    expect(streamed).toBe("Your key is [redacted], keep it safe.");
    expect(events.at(-1)!.data.text).toBe(streamed);
    expect(await (await fetch(`${base}/sessions/${id}`)).text()).not.toContain("0123456789");
  });

  it("ends a failed turn with its error's name and message, never a stack", async () => {
    const failure = new Error("provider exploded with key sk-proj-ABCDEFGHIJ0123456789xyz");
    const { base } = await setup([{ text: ["partial"], error: failure }]);
    const id = await createSession(base);
    const response = await post(`${base}/sessions/${id}/turns`, { input: "go" });
    const raw = await response.text();
    expect(raw).not.toContain("sk-proj-ABCDEFGHIJ0123456789xyz");
    expect(raw).not.toMatch(/\n\s+at /);
    expect(raw).not.toContain('"stack"');
    const replay = await readSse(await fetch(`${base}/turns/${response.headers.get("x-june-turn-id")}/events`));
    const end = replay.at(-1)!.data;
    expect(end.type).toBe("turn-end");
    expect(end.status).toBe("failed");
    expect(end.error.message).toContain("provider exploded");
    expect(Object.keys(end.error).sort()).toEqual(["message", "name"]);
  });
});

describe("turn controls", () => {
  it("cancels a running turn", async () => {
    const { base, chat } = await setup([slow(50, 20)]);
    const id = await createSession(base);
    const response = await post(`${base}/sessions/${id}/turns`, { input: "go" });
    const events: SseEvent[] = [];
    let turnId = "";
    for await (const event of sseEvents(response)) {
      events.push(event);
      if (event.event === "turn-start") turnId = event.data.turnId;
      if (event.event === "text-delta" && events.filter((e) => e.event === "text-delta").length === 1) {
        const canceled = await post(`${base}/sessions/${id}/turns/${turnId}/cancel`);
        expect(canceled.status).toBe(200);
      }
    }
    expect(events.at(-1)!.data).toMatchObject({ type: "turn-end", status: "canceled" });
    expect(events.filter((e) => e.event === "text-delta").length).toBeLessThan(50);
    await expectJsonError(await post(`${base}/sessions/${id}/turns/${turnId}/cancel`), 409, /canceled/);
    const turns = await (await chat.openSession(id)).turns();
    expect(turns[0].status).toBe("canceled");
  });

  it("steers a running turn", async () => {
    const { base, chat, model } = await setup([slow(40, 15), { text: ["steered ", "reply"] }]);
    const id = await createSession(base);
    const response = await post(`${base}/sessions/${id}/turns`, { input: "go" });
    const turnId = response.headers.get("x-june-turn-id")!;
    const events: SseEvent[] = [];
    for await (const event of sseEvents(response)) {
      events.push(event);
      if (event.event === "text-delta" && events.filter((e) => e.event === "text-delta").length === 2) {
        const steered = await post(`${base}/sessions/${id}/turns/${turnId}/steer`, { input: "be shorter" });
        expect(steered.status).toBe(200);
        expect(await steered.json()).toEqual({ ok: true });
      }
    }
    const end = events.at(-1)!.data;
    expect(end.status).toBe("completed");
    expect(end.text).toMatch(/steered reply$/);
    const deltas = events.filter((e) => e.event === "text-delta").map((e) => e.data.text).join("");
    expect(deltas).toBe(end.text);
    expect(model.callCount).toBe(2);
    const [turn] = await (await chat.openSession(id)).turns();
    expect(turn.steers.map((s) => s.input)).toEqual(["be shorter"]);

    await expectJsonError(await post(`${base}/sessions/${id}/turns/${turnId}/steer`, { input: "late" }), 409);
  });

  it("answers 404 for unknown turns and 409 for unknown approvals", async () => {
    const { base } = await setup(["ok"]);
    const id = await createSession(base);
    await expectJsonError(await post(`${base}/sessions/${id}/turns/missing/cancel`), 404, /missing/);
    await expectJsonError(await post(`${base}/sessions/${id}/turns/missing/steer`, { input: "x" }), 404, /missing/);
    for (const action of ["approve", "deny"]) {
      await expectJsonError(await post(`${base}/sessions/${id}/turns/missing/${action}`, { approvalId: "a" }), 404, /missing/);
    }
    const events = await readSse(await post(`${base}/sessions/${id}/turns`, { input: "go" }));
    const turnId = events[0].data.turnId;
    // One route per control, the session's: the turn-level ones are gone, even for a turn that is there.
    for (const action of ["approve", "deny", "answer", "steer", "cancel"]) {
      await expectJsonError(await post(`${base}/turns/${turnId}/${action}`, { approvalId: "a", input: "x" }), 404);
    }
    // Steering a turn through another session is a 404, as for none.
    const other = await createSession(base);
    await expectJsonError(await post(`${base}/sessions/${other}/turns/${turnId}/steer`, { input: "x" }), 404, /has no live or recent turn/);
    await expectJsonError(await post(`${base}/sessions/${id}/turns/${turnId}/approve`, { approvalId: "nope" }), 409);
    await expectJsonError(await post(`${base}/sessions/${id}/turns/${turnId}/deny`, { approvalId: "nope", reason: "no" }), 409);
  });
});

describe("request validation", () => {
  it("refuses bad bodies with a 4xx JSON error and keeps serving", async () => {
    const { base } = await setup(["fine"], { maxBodyBytes: 2_000 }, { maxInputChars: 50 });
    const id = await createSession(base);
    const turns = `${base}/sessions/${id}/turns`;
    await expectJsonError(await post(turns, "{not json"), 400, /not valid JSON/);
    // A form post (no preflight cross-site) never starts a turn.
    const form = await fetch(turns, { method: "POST", headers: { "content-type": "text/plain" }, body: JSON.stringify({ input: "hi" }) });
    await expectJsonError(form, 415, /application\/json/);
    await expectJsonError(await post(turns, ""), 400, /empty/);
    await expectJsonError(await post(turns, "[1,2]"), 400, /JSON object/);
    await expectJsonError(await post(turns, "null"), 400, /JSON object/);
    await expectJsonError(await post(turns, { input: 42 }), 400, /"input" must be a string/);
    await expectJsonError(await post(turns, { input: "   " }), 400, /must not be empty/);
    await expectJsonError(await post(turns, {}), 400, /"input"/);
    await expectJsonError(await post(turns, { input: "hi", inptu: "typo" }), 400, /Unknown field "inptu"/);
    await expectJsonError(await post(turns, { input: "x".repeat(51) }), 413, /over the limit/);
    // A route that takes files reads past maxBodyBytes (room for the chat's files.maxFiles of files.maxBytes);
    // what is in it is then checked: here the input, over maxInputChars. Other routes stop at maxBodyBytes.
    await expectJsonError(await post(turns, { input: "x".repeat(5_000) }), 413, /over the limit/);
    await expectJsonError(await post(`${turns}/x/steer`, { input: "x".repeat(5_000) }), 413, /larger than/);
    await expectJsonError(await post(`${base}/sessions`, { metadata: "nope" }), 400, /"metadata" must be an object/);
    await expectJsonError(await fetch(`${base}/sessions?limit=0`), 400, /limit/);
    await expectJsonError(await fetch(`${base}/sessions?before=yesterday`), 400, /before/);
    await expectJsonError(await post(`${base}/sessions/${id}/turns/x/approve`, { approvalId: 1 }), 400, /approvalId/);
    await expectJsonError(await fetch(`${base}/sessions/${id}/turns`), 405);
    expect((await fetch(`${base}/sessions/${id}/turns`)).headers.get("allow")).toBe("POST");
    await expectJsonError(await fetch(`${base}/nowhere`), 404);
    await expectJsonError(await fetch(`${base}/sessions/%E0%A4%A`), 400, /Malformed/);

    const ok = await readSse(await post(turns, { input: "hi" }));
    expect(ok.at(-1)!.data).toMatchObject({ status: "completed", text: "fine" });
  });

  it("validates approve, deny and steer bodies", async () => {
    const { base } = await setup([slow(30, 20)]);
    const id = await createSession(base);
    const response = await post(`${base}/sessions/${id}/turns`, { input: "go" });
    const turnId = response.headers.get("x-june-turn-id")!;
    await expectJsonError(await post(`${base}/sessions/${id}/turns/${turnId}/approve`, {}), 400, /approvalId/);
    await expectJsonError(await post(`${base}/sessions/${id}/turns/${turnId}/approve`, { approvalId: "a", remember: "forever" }), 400, /remember/);
    await expectJsonError(await post(`${base}/sessions/${id}/turns/${turnId}/approve`, { approvalId: "a", input: null }), 400, /input/);
    await expectJsonError(await post(`${base}/sessions/${id}/turns/${turnId}/approve`, { approvalId: "a", sessionId: id }), 400, /sessionId/);
    await expectJsonError(await post(`${base}/sessions/${id}/turns/${turnId}/deny`, { approvalId: "a", reason: 5 }), 400, /reason/);
    await expectJsonError(await post(`${base}/sessions/${id}/turns/${turnId}/steer`, { input: "" }), 400);
    await expectJsonError(await post(`${base}/sessions/${id}/turns/${turnId}/steer`, { input: "x", force: true }), 400, /Unknown field/);
    await expectJsonError(await post(`${base}/sessions/${id}/turns/${turnId}/cancel`, { force: true }), 400, /Unknown field/);
    expect((await post(`${base}/sessions/${id}/turns/${turnId}/cancel`)).status).toBe(200);
    await readSse(response);
  });
});

describe("feedback", () => {
  it("passes validated feedback to session.feedback", async () => {
    const real = createChat({ model: scriptedModel([]) });
    const given: unknown[] = [];
    // A chat whose sessions take feedback (see learning.md), recording what they get.
    const chat: Chat = {
      ...real,
      responder: real.responder,
      store: real.store,
      createSession: (options) => real.createSession(options),
      listSessions: (options) => real.listSessions(options),
      deleteSession: (id) => real.deleteSession(id),
      openSession: async (id) =>
        Object.assign(await real.openSession(id), { feedback: async (...args: unknown[]) => void given.push(args) }),
    };
    const base = await listen(createChatHandler(chat));
    const id = await createSession(base);
    const url = `${base}/sessions/${id}/turns/t-1/feedback`;
    const ok = await post(url, { score: -1, comment: "too long", tags: ["style"] });
    expect(ok.status).toBe(200);
    expect(given).toEqual([["t-1", { score: -1, comment: "too long", tags: ["style"] }]]);
    await expectJsonError(await post(url, { score: "up" }), 400, /score/);
    await expectJsonError(await post(url, { score: 1, tags: "x" }), 400, /tags/);
    await expectJsonError(await post(url, { score: 1, stars: 5 }), 400, /Unknown field/);
    await expectJsonError(await post(`${base}/sessions/nope/turns/t-1/feedback`, { score: 1 }), 404);
  });

  it("journals feedback through the chat's real sessions, and GET /sessions/:id shows the latest", async () => {
    const { chat, base } = await setup(["Fine.", { error: "model down", errorAt: "start" }]);
    const id = await createSession(base);
    const completed = await post(`${base}/sessions/${id}/turns`, { input: "hi" });
    const turnId = completed.headers.get("x-june-turn-id")!;
    await readSse(completed);
    const failed = await post(`${base}/sessions/${id}/turns`, { input: "again" });
    const failedId = failed.headers.get("x-june-turn-id")!;
    await readSse(failed);

    const url = `${base}/sessions/${id}/turns/${turnId}/feedback`;
    expect((await post(url, { score: 1, comment: "key sk-proj-0123456789abcdefghijklmn" })).status).toBe(200);
    expect((await post(url, { score: -1, tags: ["tone"] })).status).toBe(200);
    const read = (await (await fetch(`${base}/sessions/${id}`)).json()) as { turns: { id: string; feedback?: unknown }[] };
    expect(read.turns.find((turn) => turn.id === turnId)!.feedback).toEqual({ score: -1, tags: ["tone"] });
    const journaled = (await chat.store.read(id)).filter((entry) => entry.type === "feedback");
    expect(journaled.map((entry) => (entry as { comment?: string }).comment)).toEqual(["key [redacted]", undefined]);

    await expectJsonError(await post(url, { score: 2 }), 400, /score must be 1 \(up\), -1 \(down\) or a number from 0 to 1, got 2/);
    await expectJsonError(await post(`${base}/sessions/${id}/turns/nope/feedback`, { score: 1 }), 404, /no turn "nope"/);
    await expectJsonError(await post(`${base}/sessions/${id}/turns/${failedId}/feedback`, { score: 1 }), 409, /is failed/);
    expect((await chat.store.read(id)).filter((entry) => entry.type === "feedback")).toHaveLength(2);
  });
});

describe("options", () => {
  it("guards every route with authorize", async () => {
    const seen: string[] = [];
    const chat: Chat = createChat({ model: scriptedModel(["hi"]) });
    const base = await listen(
      createChatHandler(chat, {
        authorize: (request) => {
          seen.push(new URL(request.url).pathname);
          return request.headers.get("x-key") === "let-me-in";
        },
      }),
    );
    const routes: [string, string][] = [
      ["GET", "/sessions"],
      ["POST", "/sessions"],
      ["GET", "/sessions/a"],
      ["DELETE", "/sessions/a"],
      ["POST", "/sessions/a/turns"],
      ["GET", "/sessions/a/cases"],
      ["GET", "/turns/t/events"],
      ["POST", "/sessions/a/turns/t/approve"],
      ["POST", "/sessions/a/turns/t/deny"],
      ["POST", "/sessions/a/turns/t/answer"],
      ["POST", "/sessions/a/turns/t/steer"],
      ["POST", "/sessions/a/turns/t/cancel"],
      ["POST", "/ui-chat"],
      ["GET", "/unknown"],
    ];
    for (const [method, path] of routes) {
      await expectJsonError(await fetch(`${base}${path}`, { method }), 401);
    }
    expect(seen).toHaveLength(routes.length);
    const ok = await fetch(`${base}/sessions`, { headers: { "x-key": "let-me-in" } });
    expect(ok.status).toBe(200);
    const sessions = await chat.listSessions();
    expect(sessions).toEqual([]);
  });

  it("serves under a basePath", async () => {
    const { base } = await setup([], { basePath: "/api/" });
    expect((await fetch(`${base}/api/sessions`)).status).toBe(200);
    await expectJsonError(await fetch(`${base}/sessions`), 404);
    await expectJsonError(await fetch(`${base}/apisessions`), 404);
  });
});
