import type { Principal } from "../session-access.js";
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
          const ok = await call("POST", `/turns/${turnId}/approve`, { approvalId });
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
