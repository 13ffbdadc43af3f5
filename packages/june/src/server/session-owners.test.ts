import { randomUUID } from "node:crypto";
import { createChat, memoryStore, type Chat } from "june/chat";
import { describe, expect, it } from "vitest";
import { approvalResponder } from "./__fixtures__/approval-responder.js";
import { ALICE_SECRET, bearerAuthorize, clientOf, shape, uiChatBody, walkEveryRoute, type OwnerClient } from "./__fixtures__/owners.js";
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

    // ui-messages: alice's chat is, to bob, one not created yet (what a new useChat chat asks for): no messages,
    // the very answer for an id nobody has.
    const theirMessages = await bob.get(`/sessions/${session.id}/ui-messages`);
    const noMessages = await bob.get(`/sessions/${missing}/ui-messages`);
    expect([theirMessages.status, await theirMessages.text()]).toEqual([200, "[]"]);
    expect([noMessages.status, await noMessages.text()]).toEqual([200, "[]"]);

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

    const context = new HandlerContext(chat, { turnEvents: memoryTurnEvents(), redact: {}, maxBodyBytes: 1 << 20, keepAliveMs: 0 });
    await walkEveryRoute({ routes: chatRouter(context).routes(), bob, idle, busy: { id: busyId, ...live }, journals });

    // The running turn is still alice's to decide: approved, it ends, and her sessions are hers alone.
    const state = (await (await alice.get(`/sessions/${busyId}`)).json()) as { runningTurnId?: string };
    expect(state.runningTurnId).toBe(live.turnId);
    expect((await alice.post(`/sessions/${busyId}/turns/${live.turnId}/approve`, { approvalId: live.approvalId })).status).toBe(200);
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

  it("/ui-chat approval answers in bob's own chat, naming alice's running turn, never reach it: answered as for an id that does not exist", async () => {
    const { chat, alice, bob } = await setup();
    const busyId = await alice.createSession();
    const live = await alice.turn(busyId, "alice's second secret plan");
    const before = await chat.store.read(busyId);
    // Bob's own chat, its turn done: what an answer for a turn that does not exist gets is its latest.
    const own = await bob.createSession();
    await bob.turn(own, "hello from bob", { approve: true });
    const approvedAs = (messageId: string) => ({
      id: messageId,
      role: "assistant",
      parts: [
        { type: "dynamic-tool", toolName: "deploy", toolCallId: "call-1-0", state: "approval-responded", input: {}, approval: { id: live.approvalId, approved: true } },
      ],
    });
    const body = (messageId: string) => ({ ...uiChatBody(own, "hello from bob"), messages: [...uiChatBody(own, "hello from bob").messages, approvedAs(messageId)] });
    const missing = `t-${randomUUID()}`;
    const theirs = await shape(await bob.post("/ui-chat", body(live.turnId)), { message: live.turnId, approval: live.approvalId });
    const none = await shape(await bob.post("/ui-chat", body(missing)), { message: missing, approval: live.approvalId });
    expect(theirs).toEqual(none);
    expect(theirs.body).not.toContain("secret");
    expect(await chat.store.read(busyId)).toEqual(before);
    const state = (await (await alice.get(`/sessions/${busyId}`)).json()) as { runningTurnId?: string; pendingApprovals?: unknown };
    expect(state.runningTurnId).toBe(live.turnId);
    expect((await alice.post(`/sessions/${busyId}/turns/${live.turnId}/approve`, { approvalId: live.approvalId })).status).toBe(200);
  });

  it("on bob's own session, alice's live turn id answers resume, approve, deny, answer, steer and cancel exactly as a missing turn id", async () => {
    const { chat, alice, bob } = await setup();
    const busyId = await alice.createSession();
    const live = await alice.turn(busyId, "alice's second secret plan");
    const before = await chat.store.read(busyId);
    const bobs = await bob.createSession();
    const missing = `t-${randomUUID()}`;
    const controls: [string, (approvalId: string) => unknown][] = [
      ["resume", () => ({})],
      ["approve", (approvalId) => ({ approvalId })],
      ["deny", (approvalId) => ({ approvalId, reason: "bob was here" })],
      ["answer", (requestId) => ({ requestId, value: "bob was here" })],
      ["steer", () => ({ input: "bob was here" })],
      ["cancel", () => ({})],
    ];
    for (const [control, bodyOf] of controls) {
      const theirs = await shape(await bob.post(`/sessions/${bobs}/turns/${live.turnId}/${control}`, bodyOf(live.approvalId)), { turn: live.turnId });
      const none = await shape(await bob.post(`/sessions/${bobs}/turns/${missing}/${control}`, bodyOf(live.approvalId)), { turn: missing });
      expect(theirs, control).toEqual(none);
      expect(theirs.status, control).toBe(404);
      expect(theirs.body, control).not.toContain("secret");
    }
    expect(await chat.store.read(busyId)).toEqual(before);
    expect((await alice.post(`/sessions/${busyId}/turns/${live.turnId}/approve`, { approvalId: live.approvalId })).status).toBe(200);
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
