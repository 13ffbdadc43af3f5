import { randomUUID } from "node:crypto";
import { createChat, memoryStore, type Chat } from "june/chat";
import { describe, expect, it } from "vitest";
import { approvalResponder } from "./__fixtures__/approval-responder.js";
import { ALICE_SECRET, bearerAuthorize, clientOf, uiChatBody, type OwnerClient } from "./__fixtures__/owners.js";
import { listen } from "./__fixtures__/servers.js";
import { chatRouter, createChatHandler, type ChatHandlerOptions } from "./create-chat-handler.js";
import { HandlerContext } from "./handler-context.js";
import { memoryTurnEvents } from "./turn-event-bus.js";

async function setup(options: ChatHandlerOptions = {}) {
  const chat = createChat({ responder: approvalResponder(), store: memoryStore() });
  const base = await listen(createChatHandler(chat, { authorize: bearerAuthorize, ...options }));
  return { chat, base, alice: clientOf(base, "token-alice"), bob: clientOf(base, "token-bob"), admin: clientOf(base, "token-admin") };
}

/** Alice's session with one completed turn (her secret in it), and the session's journal as it is now. */
async function aliceSession(chat: Chat, alice: OwnerClient) {
  const id = await alice.createSession();
  const { turnId } = await alice.turn(id, ALICE_SECRET, { approve: true });
  return { id, turnId, journal: await chat.store.read(id) };
}

/** What an answer says, with the ids it was asked about named by role, to compare with the answer about others. */
async function shape(response: Response, ids: Record<string, string>): Promise<{ status: number; body: string }> {
  let body = await response.text();
  for (const [name, id] of Object.entries(ids)) body = body.replaceAll(id, `<${name}>`);
  return { status: response.status, body };
}

/** The routes that name no session in their path, each as bob would try it on alice's session. */
async function walkUnscoped(key: string, bob: OwnerClient, aliceId: string): Promise<void> {
  switch (key) {
    case "GET /sessions": {
      const listed = (await (await bob.get("/sessions")).json()) as { sessions: { id: string }[] };
      expect(listed.sessions.map((s) => s.id)).not.toContain(aliceId);
      return;
    }
    case "POST /sessions": {
      // An id is one namespace: a taken one is a conflict, whoever has it (the handler's own ids are random).
      expect((await bob.post("/sessions", { id: aliceId })).status).toBe(409);
      return;
    }
    case "POST /ui-chat": {
      const response = await bob.post("/ui-chat", uiChatBody(aliceId, "bob was here"));
      expect(response.status).toBe(404);
      expect(await response.text()).not.toContain("secret");
      return;
    }
    default:
      throw new Error(`${key} names no session in its path: teach the walk how bob would try it on alice's session`);
  }
}

describe("sessions that belong to someone", () => {
  it("bob reaches nothing of alice's: listing, read, ui-messages, turn, events replay, rename, feedback, delete, /ui-chat", async () => {
    const { chat, alice, bob } = await setup();
    const session = await aliceSession(chat, alice);
    const info = await chat.store.getSession(session.id);
    expect(info?.owner).toBe("alice");
    const missing = `s-${randomUUID()}`;
    const missingTurn = `t-${randomUUID()}`;

    const listed = (await (await bob.get("/sessions")).json()) as { sessions: { id: string }[] };
    expect(listed.sessions).toEqual([]);

    const asks: [string, (id: string, turnId: string) => Promise<Response>][] = [
      ["read", (id) => bob.get(`/sessions/${id}`)],
      ["ui-messages", (id) => bob.get(`/sessions/${id}/ui-messages`)],
      ["turn", (id) => bob.post(`/sessions/${id}/turns`, { input: "bob was here" })],
      ["events replay", (_, turnId) => bob.get(`/turns/${turnId}/events`)],
      ["rename", (id) => bob.call("PUT", `/sessions/${id}/title`, { title: "bob was here" })],
      ["feedback", (id, turnId) => bob.post(`/sessions/${id}/turns/${turnId}/feedback`, { score: 0, comment: "bob was here" })],
      ["cases", (id) => bob.get(`/sessions/${id}/cases`)],
      ["delete", (id) => bob.call("DELETE", `/sessions/${id}`)],
    ];
    for (const [what, ask] of asks) {
      const theirs = await shape(await ask(session.id, session.turnId), { session: session.id, turn: session.turnId });
      const none = await shape(await ask(missing, missingTurn), { session: missing, turn: missingTurn });
      expect(theirs.status, what).toBe(404);
      // Nothing tells bob the session exists: the answer is the one for a session (or turn) that does not.
      expect(theirs, what).toEqual(none);
      expect(theirs.body, what).not.toContain(ALICE_SECRET);
    }

    // `/ui-chat` with alice's id is refused, and writes nothing into her session.
    const ui = await bob.post("/ui-chat", uiChatBody(session.id, "bob was here"));
    expect(ui.status).toBe(404);
    expect(await ui.text()).not.toContain(ALICE_SECRET);

    // Alice's session is untouched, and still hers.
    expect(await chat.store.read(session.id)).toEqual(session.journal);
    const read = await alice.get(`/sessions/${session.id}`);
    expect(read.status).toBe(200);
    const body = await read.text();
    expect(body).toContain(ALICE_SECRET);
    expect(body).not.toContain("bob was here");
    const aliceList = (await (await alice.get("/sessions")).json()) as { sessions: { id: string; owner: string }[] };
    expect(aliceList.sessions.map((s) => [s.id, s.owner])).toEqual([[session.id, "alice"]]);
  });

  it("walks every route the router has: on alice's session or turn, bob gets the answer for a missing one, and nothing changes", async () => {
    const { chat, alice, bob } = await setup();
    // An idle session with a completed turn, and one whose turn runs, waiting on an approval.
    const idle = await aliceSession(chat, alice);
    const busyId = await alice.createSession();
    const live = await alice.turn(busyId, "alice's second secret plan");
    const journals = async () => [await chat.store.read(idle.id), await chat.store.read(busyId)];
    const before = await journals();
    const missing = { session: `s-${randomUUID()}`, turn: `t-${randomUUID()}` };

    // Bodies that would act on the session or turn, were the route to reach it.
    const bodies: Record<string, (turn: { turnId: string; approvalId: string }, sessionId: string) => unknown> = {
      "POST /sessions/:id/turns": () => ({ input: "bob was here" }),
      "PUT /sessions/:id/title": () => ({ title: "bob was here" }),
      "POST /sessions/:id/turns/:turnId/feedback": () => ({ score: 0 }),
      "POST /sessions/:id/turns/:turnId/edit": () => ({ input: "bob was here" }),
      "POST /sessions/:id/checkout": (turn) => ({ turnId: turn.turnId }),
      "POST /sessions/:id/turns/:turnId/approve": (turn) => ({ approvalId: turn.approvalId }),
      "POST /sessions/:id/turns/:turnId/deny": (turn) => ({ approvalId: turn.approvalId, reason: "bob was here" }),
      "POST /turns/:turnId/approve": (turn, sessionId) => ({ approvalId: turn.approvalId, sessionId }),
      "POST /turns/:turnId/deny": (turn, sessionId) => ({ approvalId: turn.approvalId, sessionId }),
      "POST /turns/:turnId/steer": () => ({ input: "bob was here" }),
    };

    const context = new HandlerContext(chat, { turnEvents: memoryTurnEvents(), redact: {}, maxBodyBytes: 1 << 20, keepAliveMs: 0 });
    const routes = chatRouter(context).routes();
    expect(routes.length).toBeGreaterThan(15);
    const walked: string[] = [];
    for (const { method, pattern } of routes) {
      const key = `${method} ${pattern}`;
      const names = [...pattern.matchAll(/:(\w+)/g)].map((m) => m[1]);
      for (const name of names) {
        expect(["id", "turnId"], `${key}: the walk knows :id (a session) and :turnId (a turn); teach it :${name}`).toContain(name);
      }
      if (pattern.startsWith("/turns/")) expect(names, `${key}: a turn's id is :turnId, :id is a session's`).not.toContain("id");

      if (names.length === 0) {
        await walkUnscoped(key, bob, idle.id);
        expect(await journals(), `${key} changed nothing`).toEqual(before);
      } else {
        // Each route on the idle session's completed turn, and on the running turn of the other.
        for (const [sessionId, turn] of [[idle.id, { turnId: idle.turnId, approvalId: "none" }], [busyId, live]] as const) {
          const fill = (ids: { session: string; turn: string }) => pattern.replace(":id", ids.session).replace(":turnId", ids.turn);
          const body = (id: string) => bodies[key]?.(turn, id) ?? (method === "GET" || method === "DELETE" ? undefined : {});
          const theirs = await shape(await bob.call(method, fill({ session: sessionId, turn: turn.turnId }), body(sessionId)), {
            session: sessionId,
            turn: turn.turnId,
          });
          const none = await shape(await bob.call(method, fill(missing), body(missing.session)), missing);
          expect(theirs.status, key).toBe(404);
          expect(theirs, key).toEqual(none);
          expect(theirs.body, key).not.toContain("secret");
          expect(await journals(), `${key} changed nothing`).toEqual(before);
        }
      }
      walked.push(key);
    }
    expect(walked).toHaveLength(routes.length);

    // The running turn is still alice's to decide: approved, it ends, and her sessions are hers alone.
    const state = (await (await alice.get(`/sessions/${busyId}`)).json()) as { runningTurnId?: string };
    expect(state.runningTurnId).toBe(live.turnId);
    expect((await alice.post(`/turns/${live.turnId}/approve`, { approvalId: live.approvalId })).status).toBe(200);
    const bobs = (await (await bob.get("/sessions")).json()) as { sessions: { id: string }[] };
    expect(bobs.sessions.map((s) => s.id)).not.toContain(idle.id);
  });

  it("canAccess lets an admin use another's session; the admin's listing still shows its own", async () => {
    const { chat, alice, admin, bob } = await setup({ canAccess: (principal) => principal.role === "admin" });
    const session = await aliceSession(chat, alice);
    const read = await admin.get(`/sessions/${session.id}`);
    expect(read.status).toBe(200);
    expect(await read.text()).toContain(ALICE_SECRET);
    const events = await admin.get(`/turns/${session.turnId}/events`);
    expect(events.status).toBe(200);
    await events.body?.cancel();
    expect(((await (await admin.get("/sessions")).json()) as { sessions: unknown[] }).sessions).toEqual([]);
    expect((await bob.get(`/sessions/${session.id}`)).status).toBe(404);
  });

  it("events of another's turn with ?missing=empty answer 204, as for a turn that is gone", async () => {
    const { chat, alice, bob } = await setup();
    const session = await aliceSession(chat, alice);
    expect((await bob.get(`/turns/${session.turnId}/events?missing=empty`)).status).toBe(204);
    expect((await bob.get(`/turns/t-${randomUUID()}/events?missing=empty`)).status).toBe(204);
    expect((await alice.get(`/turns/${session.turnId}/events?missing=empty`)).status).toBe(200);
  });

  it("/ui-chat makes a new chat the caller's, and continues it for its owner only", async () => {
    const { chat, alice, bob } = await setup();
    const id = `chat-${randomUUID()}`;
    const first = await bob.post("/ui-chat", uiChatBody(id, "hello from bob"));
    expect(first.status).toBe(200);
    await first.text();
    expect((await chat.store.getSession(id))?.owner).toBe("bob");
    const before = await chat.store.read(id);
    expect((await alice.post("/ui-chat", uiChatBody(id, "alice was here"))).status).toBe(404);
    expect(await chat.store.read(id)).toEqual(before);
  });

  it("authorize: true reaches every session as before; nothing (or false) is a 401; a malformed principal a 500 that says why", async () => {
    const chat = createChat({ responder: approvalResponder(), store: memoryStore() });
    await chat.createSession({ id: "owned", owner: "alice" });
    await chat.createSession({ id: "plain" });
    const answers: unknown[] = [true, undefined, false, { owner: "" }, "alice"];
    const bases = await Promise.all(answers.map((answer) => listen(createChatHandler(chat, { authorize: () => answer as never }))));
    const listed = (await (await fetch(`${bases[0]}/sessions`)).json()) as { sessions: { id: string }[] };
    expect(listed.sessions.map((s) => s.id).sort()).toEqual(["owned", "plain"]);
    expect((await fetch(`${bases[0]}/sessions/owned`)).status).toBe(200);
    expect((await fetch(`${bases[1]}/sessions`)).status).toBe(401);
    expect((await fetch(`${bases[2]}/sessions`)).status).toBe(401);
    const empty = await fetch(`${bases[3]}/sessions`);
    expect(empty.status).toBe(500);
    expect(((await empty.json()) as { error: string }).error).toMatch(/authorize answered an object whose "owner" is/);
    expect(((await (await fetch(`${bases[4]}/sessions`)).json()) as { error: string }).error).toMatch(/authorize must answer true, false or \{ owner: string \}/);
    expect(() => createChatHandler(chat, { canAccess: "yes" as never })).toThrow(/canAccess must be a function/);
  });

  it("a session with no owner (made by the CLI, or before owners) is no principal's", async () => {
    const { chat, bob } = await setup();
    await chat.createSession({ id: "unowned" });
    expect((await bob.get("/sessions/unowned")).status).toBe(404);
    expect(((await (await bob.get("/sessions")).json()) as { sessions: unknown[] }).sessions).toEqual([]);
  });
});

describe("the library's own API", () => {
  it("chat.createSession({ owner }) journals the owner; chat.listSessions({ owner }) lists that owner's sessions", async () => {
    const chat = createChat({ responder: approvalResponder(), store: memoryStore() });
    const mine = await chat.createSession({ owner: "alice" });
    await chat.createSession({ owner: "bob" });
    const [entry] = await chat.store.read(mine.id);
    expect(entry).toMatchObject({ type: "session", owner: "alice" });
    expect((await chat.listSessions({ owner: "alice" })).map((s) => s.id)).toEqual([mine.id]);
    expect(await chat.listSessions()).toHaveLength(2);
    await expect(chat.createSession({ owner: "" })).rejects.toThrow(/`owner` must be a string of 1 to 1000 characters/);
  });
});
