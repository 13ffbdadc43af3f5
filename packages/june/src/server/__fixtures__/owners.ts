import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import type { JournalEntry } from "../../stores/types.js";
import type { RouteEntry } from "../router.js";
import { type Principal, SESSION_PARAMS } from "../session-access.js";
import { sseEvents } from "./sse-client.js";

/** The users of the owner tests: a bearer token each, and the principal `authorize` answers for it. */
export const USERS: Record<string, Principal> = {
  "token-alice": { owner: "alice" },
  "token-bob": { owner: "bob" },
  "token-admin": { owner: "admin", role: "admin" },
};

/** `authorize` for those tokens: the principal of a known bearer token, else `false` (401). */
export function bearerAuthorize(request: Request): Principal | false {
  const token = /^Bearer (\S+)$/.exec(request.headers.get("authorization") ?? "")?.[1];
  return (token !== undefined && USERS[token]) || false;
}

/** A file id (a SHA-256) for the routes that name one (`GET /sessions/:chatId/files/:fileId`). */
const A_FILE_ID = "0".repeat(64);

/** What alice says in her session: no answer to anyone else may hold it. */
export const ALICE_SECRET = "alice's secret plan";

/** A client of a handler at `base` as one user (by token): JSON in, the response out. */
export function clientOf(base: string, token: string) {
  const call = (method: string, path: string, body?: unknown) =>
    fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined && { "content-type": "application/json" }) },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
  return {
    call,
    get: (path: string) => call("GET", path),
    post: (path: string, body?: unknown) => call("POST", path, body ?? {}),
    /** A new session of this user's; its id. */
    async createSession(): Promise<string> {
      const response = await call("POST", "/sessions", {});
      if (response.status !== 201) throw new Error(`POST /sessions answered ${response.status}: ${await response.text()}`);
      return ((await response.json()) as { id: string }).id;
    },
    /**
     * Starts a turn (through `approvalResponder`'s chat): its id and the approval it asks for, once it asks.
     * With `approve`, approves it and reads on to the turn's end.
     */
    async turn(sessionId: string, input: string, options: { approve?: boolean } = {}): Promise<{ turnId: string; approvalId: string }> {
      const response = await call("POST", `/sessions/${sessionId}/turns`, { input });
      if (response.status !== 200) throw new Error(`POST turns answered ${response.status}: ${await response.text()}`);
      let turnId = "";
      let approvalId = "";
      for await (const event of sseEvents(response)) {
        if (event.event === "turn-start") turnId = event.data.turnId;
        if (event.event === "approval-request") {
          approvalId = event.data.request.id;
          if (!options.approve) break;
          const ok = await call("POST", `/sessions/${sessionId}/turns/${turnId}/approve`, { approvalId });
          if (ok.status !== 200) throw new Error(`approve answered ${ok.status}`);
        }
        if (event.event === "turn-end") break;
      }
      return { turnId, approvalId };
    },
  };
}

export type OwnerClient = ReturnType<typeof clientOf>;

/** A `useChat` request body (`DefaultChatTransport`'s) sending `text` in chat `id`. */
export function uiChatBody(id: string, text: string) {
  return { id, trigger: "submit-message", messages: [{ id: `m-${text.length}`, role: "user", parts: [{ type: "text", text }] }] };
}

/** What an answer says, with the ids it was asked about named by role, to compare with the answer about others. */
export async function shape(response: Response, ids: Record<string, string>): Promise<{ status: number; body: string }> {
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
    case "GET /memory":
    case "PUT /memory":
    case "DELETE /memory": {
      // Always the caller's own memory (never a parameter): in this chat, which keeps none, a 404 for everyone.
      const [method] = key.split(" ");
      expect((await bob.call(method!, "/memory", method === "PUT" ? { text: "bob was here" } : undefined)).status).toBe(404);
      return;
    }
    case "GET /schedules": {
      // The chat's schedules, filtered to the caller's: this chat has no queue, so none for anyone.
      expect(await (await bob.get("/schedules")).json()).toEqual({ schedules: [], queue: false });
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


/**
 * Walks every route (`routes`, as the handler's router lists them) as bob, on alice's sessions: `idle` (a
 * completed turn) and `busy` (a turn running, waiting on an approval). A route whose path names a session or a
 * turn answers bob 404, exactly what it answers for a session and turn that do not exist, with bodies that
 * would act, were the route to reach them; the ones that name none are tried by `walkUnscoped`. After each
 * request, alice's journals (`journals()`) are what they were. A route with a path parameter the walk does
 * not know fails it.
 */
export async function walkEveryRoute(options: {
  routes: RouteEntry[];
  bob: OwnerClient;
  idle: { id: string; turnId: string };
  busy: { id: string; turnId: string; approvalId: string };
  journals: () => Promise<JournalEntry[][]>;
}): Promise<void> {
  const { routes, bob, idle, busy, journals } = options;
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
    "POST /sessions/:id/turns/:turnId/steer": () => ({ input: "bob was here" }),
  };
  expect(routes.length).toBeGreaterThan(15);
  for (const { method, pattern } of routes) {
    const key = `${method} ${pattern}`;
    const names = [...pattern.matchAll(/:(\w+)/g)].map((m) => m[1]);
    for (const name of names) {
      expect([...SESSION_PARAMS, "turnId", "fileId"], `${key}: the walk knows sessions (${SESSION_PARAMS.join(", ")}), :turnId and :fileId; teach it :${name}`).toContain(name);
    }
    if (pattern.startsWith("/turns/")) expect(names, `${key}: a turn's id is :turnId, :id is a session's`).not.toContain("id");
    if (names.length === 0) {
      await walkUnscoped(key, bob, idle.id);
      expect(await journals(), `${key} changed nothing`).toEqual(before);
      continue;
    }
    // Each route on the idle session's completed turn, and on the running turn of the other.
    for (const [sessionId, turn] of [[idle.id, { turnId: idle.turnId, approvalId: "none" }], [busy.id, busy]] as const) {
      const fill = (ids: { session: string; turn: string }) =>
        pattern.replace(/:(\w+)/g, (_, name: string) => (name === "turnId" ? ids.turn : name === "fileId" ? A_FILE_ID : ids.session));
      const body = (id: string) => bodies[key]?.(turn, id) ?? (method === "GET" || method === "DELETE" ? undefined : {});
      const theirs = await shape(await bob.call(method, fill({ session: sessionId, turn: turn.turnId }), body(sessionId)), {
        session: sessionId,
        turn: turn.turnId,
      });
      const none = await shape(await bob.call(method, fill(missing), body(missing.session)), missing);
      // useChat's reconnect (`GET /ui-chat/:chatId/stream`) answers a chat it does not see as nothing to resume,
      // and its messages (`GET /sessions/:chatId/ui-messages`) as none, as for a chat not created yet.
      const seenAsNone: Record<string, number> = { "GET /ui-chat/:chatId/stream": 204, "GET /sessions/:chatId/ui-messages": 200 };
      expect(theirs.status, key).toBe(seenAsNone[key] ?? 404);
      expect(theirs, key).toEqual(none);
      expect(theirs.body, key).not.toContain("secret");
      expect(await journals(), `${key} changed nothing`).toEqual(before);
    }
  }
}
