import { jsonSchema, tool, type ModelMessage } from "ai";
import { Agent, Step, Tool } from "june";
import { agentResponder, createChat, type Chat } from "june/chat";
import { jsx } from "june/jsx-runtime";
import { createChatHandler, serve } from "june/server";
import { scriptedModel, type ScriptEntry } from "june/testing";
import { afterEach, describe, expect, it } from "vitest";
import { isUnreachable, StudioClient } from "../api/client";
import type { ChatTraceRow } from "../api/types";
import { ChatController } from "./chat-controller";
import type { ChatSnapshot } from "./chat-snapshot";
import { SessionsController } from "./sessions-controller";

/**
 * The controller against the real thing: a real `createChat` (a model chat, or an `agentResponder` workflow
 * with a tool that needs approval, on a scripted model) served by the real `createChatHandler` on a local
 * port, and Studio's own `StudioClient` fetching from it. No part of the wire is mocked.
 */

interface Served {
  client: StudioClient;
  /** `METHOD /path` of every request the server answered. */
  requests: string[];
  url: string;
  port: number;
  close(): Promise<void>;
}

const open: Served[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((served) => served.close()));
});

async function serveChat(chat: Chat, port = 0): Promise<Served> {
  const handler = createChatHandler(chat);
  const requests: string[] = [];
  const server = await serve({
    port,
    handler: (request) => {
      requests.push(`${request.method} ${new URL(request.url).pathname}`);
      return handler(request);
    },
  });
  const served = { client: new StudioClient(server.url, null), requests, url: server.url, port: server.port, close: server.close };
  open.push(served);
  return served;
}

function modelChat(script: ScriptEntry[]): Chat {
  return createChat({ model: scriptedModel(script), instructions: "Be brief." });
}

/** A workflow that calls `deploy` (it needs approval), then streams a reply saying how it went. */
function deployChat(): { chat: Chat; deployed: string[] } {
  const deployed: string[] = [];
  const model = scriptedModel([
    { text: "Deploying now.", toolCalls: [{ toolName: "deploy", input: { env: "staging" } }] },
    { text: "Done." },
    { text: ["Staging ", "is ", "handled."], delay: 10 },
  ]);
  const deploy = tool({
    description: "Deploy to an environment",
    inputSchema: jsonSchema<{ env: string }>({ type: "object", properties: { env: { type: "string" } }, required: ["env"] }),
    needsApproval: true,
    execute: async ({ env }) => {
      deployed.push(env);
      return `deployed to ${env}`;
    },
  });
  const workflow = ({ messages, input }: { messages: ModelMessage[]; input: string }) =>
    jsx(Agent, {
      model,
      instructions: "You ship code.",
      children: [
        jsx(Tool, { name: "deploy", value: deploy }),
        jsx(Step, { id: "work", prompt: [...messages, { role: "user", content: input }] }),
        jsx(Step, { id: "reply", stream: true, prompt: (ctx: { steps: Record<string, unknown> }) => `Say: ${String(ctx.steps.work)}` }),
      ],
    });
  const chat = createChat({
    responder: agentResponder({ id: "engineer", render: workflow, reply: (result) => String(result.steps.reply), stream: { step: "reply" } }),
  });
  return { chat, deployed };
}

/** Resolves with the first snapshot (now or later) that `ok` accepts; fails naming `what` after a while. */
function until(controller: ChatController, ok: (snapshot: ChatSnapshot) => boolean, what: string): Promise<ChatSnapshot> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const snapshot = controller.getSnapshot();
      if (!ok(snapshot)) return false;
      clearTimeout(timer);
      unsubscribe();
      resolve(snapshot);
      return true;
    };
    const timer = setTimeout(() => {
      unsubscribe();
      reject(new Error(`timed out waiting for ${what}; last snapshot: ${JSON.stringify(controller.getSnapshot()).slice(0, 600)}`));
    }, 15_000);
    const unsubscribe = controller.subscribe(check);
    check();
  });
}

/** Every snapshot the controller publishes, in order. */
function record(controller: ChatController): ChatSnapshot[] {
  const seen: ChatSnapshot[] = [];
  controller.subscribe(() => seen.push(controller.getSnapshot()));
  return seen;
}

function pendingApproval(rows: readonly ChatTraceRow[]): string | undefined {
  for (const row of rows) {
    if (row.kind === "approval" && row.status === "pending") return row.approvalId;
    const below = pendingApproval(row.children);
    if (below) return below;
  }
  return undefined;
}

async function newSession(served: Served): Promise<string> {
  return (await served.client.createSession()).id;
}

async function opened(controller: ChatController, sessionId: string): Promise<ChatSnapshot> {
  controller.open(sessionId);
  return until(controller, (s) => s.sessionId === sessionId && !s.loading && s.detail?.id === sessionId, `session ${sessionId} to load`);
}

describe("ChatController", () => {
  it("sends a message: the reply streams into `live`, then the journaled turn takes its place", async () => {
    const served = await serveChat(modelChat([{ text: ["Hello ", "there, ", "Ada."], delay: 10 }]));
    let changed = 0;
    const controller = new ChatController({ client: served.client, onSessionsChanged: () => changed++ });
    const id = await newSession(served);
    await opened(controller, id);
    const seen = record(controller);

    await controller.send("Hi, I am Ada");

    const partial = seen.find((s) => s.live?.status === "running" && s.live.text !== "" && s.live.text !== "Hello there, Ada.");
    expect(partial?.live).toMatchObject({ input: "Hi, I am Ada", status: "running" });
    const end = controller.getSnapshot();
    expect(end.live).toBeNull();
    expect(end.error).toBeNull();
    expect(end.detail?.turns).toEqual([expect.objectContaining({ input: "Hi, I am Ada", text: "Hello there, Ada.", status: "completed" })]);
    expect(changed).toBeGreaterThan(0);
    // A snapshot is a value: the ones published before are left as they were.
    expect(seen[0]).not.toBe(end);
  });

  it("approve: the tool waiting for approval runs, and the reply streams on", async () => {
    const { chat, deployed } = deployChat();
    const served = await serveChat(chat);
    const controller = new ChatController({ client: served.client });
    const id = await newSession(served);
    await opened(controller, id);

    const sending = controller.send("Deploy the docs to staging");
    const waiting = await until(controller, (s) => pendingApproval(s.live?.rows ?? []) !== undefined, "the approval row");
    expect(deployed).toEqual([]);
    await controller.approve(pendingApproval(waiting.live!.rows)!);
    await sending;

    expect(deployed).toEqual(["staging"]);
    const [turn] = controller.getSnapshot().detail!.turns;
    expect(turn).toMatchObject({ status: "completed", text: "Staging is handled." });
    // This page keeps the turn's trace: the tool row, approved.
    expect(JSON.stringify(controller.getSnapshot().traces[turn!.id])).toContain("deploy");
  });

  it("deny with a reason: the tool never runs and the turn ends", async () => {
    const { chat, deployed } = deployChat();
    const served = await serveChat(chat);
    const controller = new ChatController({ client: served.client });
    const id = await newSession(served);
    await opened(controller, id);

    const sending = controller.send("Deploy the docs to staging");
    const waiting = await until(controller, (s) => pendingApproval(s.live?.rows ?? []) !== undefined, "the approval row");
    await controller.deny(pendingApproval(waiting.live!.rows)!, "Not today");
    await sending;

    expect(deployed).toEqual([]);
    expect(controller.getSnapshot().detail!.turns[0]).toMatchObject({ status: "completed" });
    expect(controller.getSnapshot().live).toBeNull();
  });

  it("a control that fails rethrows where the caller keeps something (approve), and shows as the error where not (cancel)", async () => {
    const { chat } = deployChat();
    const served = await serveChat(chat);
    const controller = new ChatController({ client: served.client });
    const id = await newSession(served);
    await opened(controller, id);
    const sending = controller.send("Deploy the docs to staging");
    await until(controller, (s) => pendingApproval(s.live?.rows ?? []) !== undefined, "the approval row");
    await expect(controller.approve("no-such-request")).rejects.toThrow();
    await controller.cancel();
    await sending;
    expect(controller.getSnapshot().detail!.turns[0]!.status).toBe("canceled");
  });

  it("steer reaches the running turn: the live turn shows it, then its record", async () => {
    const served = await serveChat(modelChat([{ text: Array.from({ length: 30 }, (_, i) => `w${i} `), delay: 20 }, "Steered."]));
    const controller = new ChatController({ client: served.client });
    const id = await newSession(served);
    await opened(controller, id);

    const sending = controller.send("Write a list");
    await until(controller, (s) => s.live?.turnId !== undefined && s.live.text !== "", "the reply to start");
    await controller.steer("Make it short");
    expect(controller.getSnapshot().live?.steers).toEqual(["Make it short"]);
    await sending;

    expect(controller.getSnapshot().detail!.turns[0]!.steers).toEqual([expect.objectContaining({ input: "Make it short" })]);
  });

  it("cancel stops the running turn; its record says canceled", async () => {
    const served = await serveChat(modelChat([{ text: Array.from({ length: 200 }, (_, i) => `w${i} `), delay: 20 }]));
    const controller = new ChatController({ client: served.client });
    const id = await newSession(served);
    await opened(controller, id);

    const sending = controller.send("Write a long answer");
    await until(controller, (s) => s.live?.turnId !== undefined && s.live.text !== "", "the reply to start");
    await controller.cancel();
    await sending;

    const snapshot = controller.getSnapshot();
    expect(snapshot.live).toBeNull();
    expect(snapshot.detail!.turns[0]!.status).toBe("canceled");
  });

  it("switching sessions stops following the first; switching back rejoins its running turn", async () => {
    const served = await serveChat(modelChat([{ text: Array.from({ length: 40 }, (_, i) => `w${i} `), delay: 25 }]));
    const controller = new ChatController({ client: served.client });
    const [a, b] = [await newSession(served), await newSession(served)];
    await opened(controller, a);

    const sending = controller.send("A long one in a");
    await until(controller, (s) => s.live?.turnId !== undefined && s.live.text !== "", "a's reply to start");
    const turnId = controller.getSnapshot().live!.turnId!;

    const inB = await opened(controller, b);
    expect(inB).toMatchObject({ sessionId: b, live: null, error: null });
    expect(inB.detail!.turns).toEqual([]);
    await sending; // the send of a page that moved on settles quietly

    const backInA = await opened(controller, a);
    // Still running on the server: rejoined from its events so far (or, if it just ended, shown as journaled).
    const end = await until(controller, (s) => s.live === null && s.detail?.turns[0]?.status === "completed", "a's turn to end");
    expect(backInA.sessionId).toBe(a);
    expect(end.detail!.turns[0]).toMatchObject({ id: turnId, text: Array.from({ length: 40 }, (_, i) => `w${i} `).join("") });
  });

  it("a second page rejoins the turn another page runs, and reload reads it again", async () => {
    const served = await serveChat(modelChat([{ text: Array.from({ length: 40 }, (_, i) => `w${i} `), delay: 25 }]));
    const first = new ChatController({ client: served.client });
    const second = new ChatController({ client: served.client });
    const id = await newSession(served);
    await opened(first, id);
    const sending = first.send("Tell me a story");
    const running = await until(first, (s) => s.live?.turnId !== undefined && s.live.text !== "", "the reply to start");

    second.open(id);
    const rejoined = await until(second, (s) => s.live?.turnId === running.live!.turnId && s.live?.text !== "", "the second page to rejoin");
    expect(rejoined.live).toMatchObject({ input: "Tell me a story", status: "running" });
    second.reload();
    expect(second.getSnapshot()).toMatchObject({ sessionId: id, loading: true, live: null });
    await until(second, (s) => s.live?.turnId === running.live!.turnId, "the reloaded page to rejoin");

    await sending;
    const end = await until(second, (s) => s.live === null && s.detail?.turns[0]?.status === "completed", "the turn to end on the second page");
    expect(end.detail!.turns[0]!.text).toBe(first.getSnapshot().detail!.turns[0]!.text);
    first.dispose();
    second.dispose();
  });

  it("branches come with the session: regenerate and checkout, and not one per-turn branches request", async () => {
    const served = await serveChat(modelChat(["one", "two", "two again"]));
    const controller = new ChatController({ client: served.client });
    const id = await newSession(served);
    await opened(controller, id);
    await controller.send("a");
    await controller.send("b");
    expect(controller.getSnapshot().branches).toEqual({});
    const b = controller.getSnapshot().detail!.turns[1]!.id;

    await controller.regenerate(b);
    const afterRegenerate = controller.getSnapshot();
    const again = afterRegenerate.detail!.turns[1]!.id;
    expect(again).not.toBe(b);
    expect(afterRegenerate.branches).toEqual({ [again]: [b, again] });
    expect(afterRegenerate.detail!.turns[1]!.text).toBe("two again");

    await controller.checkout(b);
    const afterCheckout = controller.getSnapshot();
    expect(afterCheckout.detail!.turns.map((turn) => turn.text)).toEqual(["one", "two"]);
    expect(afterCheckout.branches).toEqual({ [b]: [b, again] });

    // A fresh page opening the session asks for it once.
    const requestsBefore = served.requests.length;
    const fresh = new ChatController({ client: served.client });
    expect((await opened(fresh, id)).branches).toEqual({ [b]: [b, again] });
    expect(served.requests.filter((request) => request.endsWith("/branches"))).toEqual([]);
    expect(served.requests.slice(requestsBefore).filter((request) => request.startsWith("GET /sessions/"))).toEqual([`GET /sessions/${id}`]);
  });

  it("a queued first message is sent as soon as its new session opens", async () => {
    const served = await serveChat(modelChat(["Welcome."]));
    const controller = new ChatController({ client: served.client });
    controller.open(null);
    expect(controller.getSnapshot()).toMatchObject({ sessionId: null, loading: false, detail: null });
    const id = await newSession(served);
    controller.queue(id, "First message");
    controller.open(id);
    const end = await until(controller, (s) => s.live === null && s.detail?.turns.length === 1 && s.detail.turns[0]!.status === "completed", "the first turn");
    expect(end.detail!.turns[0]).toMatchObject({ input: "First message", text: "Welcome." });
  });

  it("with the server gone a send rejects (the composer keeps the draft); once it is back, reload reads the session again", async () => {
    const chat = modelChat(["Back."]);
    const served = await serveChat(chat);
    const controller = new ChatController({ client: served.client });
    const id = await newSession(served);
    await opened(controller, id);
    await served.close();

    const failure = await controller.send("Are you there?").catch((caught: unknown) => caught);
    expect(isUnreachable(failure)).toBe(true);
    expect(controller.getSnapshot()).toMatchObject({ live: null, error: null });

    const back = await serveChat(chat, served.port);
    controller.reload();
    await until(controller, (s) => !s.loading && s.detail?.id === id, "the session read again");
    await controller.send("Are you there?");
    expect(controller.getSnapshot().detail!.turns[0]).toMatchObject({ input: "Are you there?", text: "Back." });
    expect(back.requests).toContain(`GET /sessions/${id}`);
  });

  it("feedback shows on the turn once the server took it; an unknown session shows as the error", async () => {
    const served = await serveChat(modelChat(["Sure."]));
    const controller = new ChatController({ client: served.client });
    const id = await newSession(served);
    await opened(controller, id);
    await controller.send("Help me");
    const turnId = controller.getSnapshot().detail!.turns[0]!.id;
    await controller.feedback(turnId, { score: 1, comment: "good" });
    expect(controller.getSnapshot().detail!.turns[0]!.feedback).toEqual({ score: 1, comment: "good" });
    expect((await served.client.getSession(id)).turns[0]!.feedback).toEqual({ score: 1, comment: "good" });

    controller.open("no-such-session");
    const missing = await until(controller, (s) => s.error !== null, "the error");
    expect(missing).toMatchObject({ sessionId: "no-such-session", loading: false, detail: null });
    expect(missing.error).toMatch(/no-such-session/);
    controller.dismissError();
    expect(controller.getSnapshot().error).toBeNull();
  });
});

describe("SessionsController", () => {
  it("lists, renames (the server's title wins) and deletes sessions; a refused rename puts the old title back", async () => {
    const served = await serveChat(modelChat(["Deployed."]));
    const sessions = new SessionsController({ client: served.client });
    const chat = new ChatController({ client: served.client, onSessionsChanged: () => void sessions.refresh() });
    await sessions.refresh();
    expect(sessions.getSnapshot()).toMatchObject({ sessions: [], loaded: true, error: null });

    const created = await sessions.create();
    await opened(chat, created.id);
    await chat.send("Deploy the docs to staging");
    await sessions.refresh();
    expect(sessions.getSnapshot().sessions).toEqual([expect.objectContaining({ id: created.id, title: "Deploy the docs to staging", turnCount: 1 })]);

    const seen: (string | undefined)[] = [];
    sessions.subscribe(() => seen.push(sessions.getSnapshot().sessions[0]?.title));
    await sessions.rename(created.id, "Docs   deploy");
    expect(seen[0]).toBe("Docs   deploy"); // at once, as typed
    expect(sessions.getSnapshot().sessions[0]!.title).toBe("Docs deploy"); // then as journaled
    expect((await served.client.listSessions())[0]!.title).toBe("Docs deploy");

    await expect(sessions.rename(created.id, "x".repeat(81))).rejects.toThrow(/at most 80/);
    expect(sessions.getSnapshot().sessions[0]!.title).toBe("Docs deploy");

    await sessions.remove(created.id);
    expect(sessions.getSnapshot().sessions).toEqual([]);
    chat.dispose();
  });
});

describe("ChatController with files", () => {
  it("sends files as multipart: shown from the page's copies while the turn runs, then from the session's file route", async () => {
    const model = scriptedModel([{ text: ["A ", "pixel."], delay: 10 }]);
    const served = await serveChat(createChat({ model }));
    const controller = new ChatController({ client: served.client });
    const id = await newSession(served);
    await opened(controller, id);
    const png = Uint8Array.from(atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="), (c) => c.charCodeAt(0));
    const seen = record(controller);

    await controller.send("", [new File([png], "pixel.png", { type: "image/png" })]);
    const live = seen.find((s) => s.live?.files)?.live;
    expect(live?.files).toEqual([{ key: expect.any(String), url: expect.stringMatching(/^blob:/), mediaType: "image/png", filename: "pixel.png", size: png.byteLength }]);
    const done = await until(controller, (s) => s.live === null && s.detail?.turns.length === 1, "the journaled turn");
    const record0 = done.detail!.turns[0]!;
    expect(record0).toMatchObject({ input: "", text: "A pixel.", files: [{ mediaType: "image/png", filename: "pixel.png", size: png.byteLength }] });
    const [file] = controller.filesOf(record0);
    expect(file!.url).toBe(`${served.url}/sessions/${id}/files/${record0.files![0]!.id}`);
    const bytes = new Uint8Array(await (await fetch(file!.url)).arrayBuffer());
    expect(bytes).toEqual(png);
    const prompt = model.doStreamCalls[0]!.prompt.at(-1)!;
    expect((prompt.content as { type: string }[]).map((part) => part.type)).toContain("file");
    controller.dispose();
  });
});
