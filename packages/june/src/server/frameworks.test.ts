import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { DefaultChatTransport, type UIMessage } from "ai";
import express from "express";
import { Hono } from "hono";
import { createChat, type Chat } from "june/chat";
import { createChatHandler, serve, toNodeListener } from "june/server";
import { scriptedModel } from "june/testing";
import { describe, expect, it } from "vitest";
import { onCleanup } from "./__fixtures__/servers.js";
import { TestChat, textOf as replyOf } from "./__fixtures__/test-chat.js";

/**
 * The recipes of docs/server.md, each over real HTTP: Node's `http`, Hono, Express 5 (the Next.js App
 * Router recipe is built in next-app.e2e.test.ts). Each answers a `useChat` turn and lists the session.
 */

/** A turn through `useChat`'s transport at `api`, then the session as the handler lists it. */
async function chatThrough(chat: Chat, base: string, prefix: string): Promise<void> {
  const client = new TestChat({ id: "framework-chat", transport: new DefaultChatTransport({ api: `${base}${prefix}/ui-chat` }) });
  await client.sendMessage({ text: "Hi" });
  expect(client.error).toBeUndefined();
  expect(replyOf(client.lastMessage)).toBe("Hello from June.");
  const listed = await fetch(`${base}${prefix}/sessions/framework-chat`);
  expect(listed.status).toBe(200);
  expect(((await listed.json()) as { turns: { text: string }[] }).turns.map((t) => t.text)).toEqual(["Hello from June."]);
  const messages = (await (await fetch(`${base}${prefix}/sessions/framework-chat/ui-messages`)).json()) as UIMessage[];
  expect(messages.map(replyOf)).toEqual(["Hi", "Hello from June."]);
  expect((await (await chat.openSession("framework-chat")).turns())).toHaveLength(1);
}

async function listenNode(server: ReturnType<typeof createServer>): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  onCleanup(() => new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  }));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const newChat = () => createChat({ model: scriptedModel(["Hello from June."]) });

describe("framework recipes", () => {
  it("Node http: createServer(toNodeListener(handler))", async () => {
    const chat = newChat();
    const base = await listenNode(createServer(toNodeListener(createChatHandler(chat))));
    await chatThrough(chat, base, "");
  });

  it("Hono: app.all('/api/june/*') hands c.req.raw to a handler with basePath /api/june", async () => {
    const chat = newChat();
    const handler = createChatHandler(chat, { basePath: "/api/june" });
    const app = new Hono();
    app.get("/", (c) => c.text("the app"));
    app.all("/api/june/*", (c) => handler(c.req.raw));
    const server = await serve({ handler: app.fetch });
    onCleanup(() => server.close());
    await chatThrough(chat, server.url, "/api/june");
    expect(await (await fetch(`${server.url}/`)).text()).toBe("the app");
  });

  it("Express 5: app.use('/api/june', toNodeListener(handler)) after express.json(), basePath /api/june", async () => {
    const chat = newChat();
    const app = express();
    // A body parser before the handler: its parsed body is used.
    app.use(express.json());
    app.use("/api/june", toNodeListener(createChatHandler(chat, { basePath: "/api/june" })));
    app.get("/", (_req, res) => void res.send("the app"));
    const base = await listenNode(createServer(app));
    await chatThrough(chat, base, "/api/june");
    // A new session by POST, through the parsed body.
    const created = await fetch(`${base}/api/june/sessions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ id: "made-by-post" }),
    });
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ id: "made-by-post" });
  });

  it("a mounted prefix without basePath, or the wrong one, gets a 404 that says where the handler serves", async () => {
    const chat = newChat();
    const app = express();
    app.use("/api/june", toNodeListener(createChatHandler(chat)));
    app.use("/other", toNodeListener(createChatHandler(chat, { basePath: "/api/june" })));
    const base = await listenNode(createServer(app));

    const unset = await fetch(`${base}/api/june/sessions`);
    expect(unset.status).toBe(404);
    expect(((await unset.json()) as { error: string }).error).toBe(
      `No route for GET /api/june/sessions: this handler serves under / (no basePath); for routes under /api/june, create it with basePath: "/api/june"`,
    );
    const elsewhere = await fetch(`${base}/other/sessions`);
    expect(elsewhere.status).toBe(404);
    expect(((await elsewhere.json()) as { error: string }).error).toBe("No route for GET /other/sessions: this handler serves under /api/june");
  });

  it("a body another middleware read and left unparsed gets a 500 that says so", async () => {
    const chat = newChat();
    const errors: unknown[] = [];
    const app = express();
    // Reads the stream to its end and keeps nothing, as a logging or signing middleware might.
    app.use((req, _res, next) => {
      req.on("data", () => {});
      req.on("end", () => next());
    });
    app.use(toNodeListener(createChatHandler(chat), { onError: (error) => errors.push(error) }));
    const base = await listenNode(createServer(app));
    const response = await fetch(`${base}/sessions`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect(response.status).toBe(500);
    expect(((await response.json()) as { error: string }).error).toBe(
      "The body of POST /sessions was read before the June handler by another middleware, which left no parsed body (req.body): mount the handler before body-reading middleware",
    );
    expect(errors).toHaveLength(1);
    // express.text() leaves a string: used as it is.
    const textApp = express();
    textApp.use(express.text({ type: "*/*" }));
    textApp.use(toNodeListener(createChatHandler(chat)));
    const textBase = await listenNode(createServer(textApp));
    const created = await fetch(`${textBase}/sessions`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ id: "from-text" }) });
    expect(created.status).toBe(201);
  });
});
