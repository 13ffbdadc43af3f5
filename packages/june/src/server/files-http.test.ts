import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { UIMessage } from "ai";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createChat, fileStore, memoryStore, sqliteStore, type ChatStore } from "june/chat";
import { createOpenAI } from "june/sdk/openai";
import { createChatHandler, type ChatHandlerOptions } from "june/server";
import { createFakeOpenAIServer, type FakeModelInlineFile, type FakeOpenAIServer } from "june/testing";
import { afterEach, describe, expect, it } from "vitest";
import { bearerAuthorize, shape } from "./__fixtures__/owners.js";
import { listen, onCleanup } from "./__fixtures__/servers.js";
import { sseEvents } from "./__fixtures__/sse-client.js";

/** A 1x1 PNG. */
const PNG = Uint8Array.from(Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64"));
const PNG_URL = `data:image/png;base64,${Buffer.from(PNG).toString("base64")}`;
const PDF = Uint8Array.from([...Buffer.from("%PDF-1.4\n"), ...Array.from({ length: 64 }, (_, i) => i)]);

let fake: FakeOpenAIServer | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

/** A chat on the real OpenAI provider against the fake OpenAI server, which records the files it gets. */
async function setup(options: { chat?: Partial<Parameters<typeof createChat>[0]>; handler?: ChatHandlerOptions } = {}) {
  fake = await createFakeOpenAIServer({ script: () => "Seen." });
  const chat = createChat({ model: createOpenAI({ baseURL: fake.url, apiKey: "sk-test" })("gpt-5-mini"), store: memoryStore(), ...options.chat } as Parameters<typeof createChat>[0]);
  const base = await listen(createChatHandler(chat, options.handler));
  return { chat, base, fake };
}

const bytesOf = (file: unknown) => Buffer.from((file as FakeModelInlineFile).data);

/** What `useChat`'s `sendMessage({ text, files })` posts: the file parts (data URLs) before the text. */
function uiChatBody(id: string, text: string, files: { url: string; mediaType: string; filename?: string }[], history: UIMessage[] = []) {
  const parts = [...files.map((file) => ({ type: "file", ...file })), { type: "text", text }];
  return { id, trigger: "submit-message", messages: [...history, { id: `m-${history.length}`, role: "user", parts }] };
}

const postJson = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });

/** Reads a turn's SSE answer to its end; its `turn-end` event, and its `turn-start`'s files. */
async function turnEnd(response: Response): Promise<{ status: string; text?: string; startFiles?: unknown[] }> {
  let startFiles: unknown[] | undefined;
  for await (const event of sseEvents(response)) {
    if (event.event === "turn-start") startFiles = event.data.files;
    if (event.event === "turn-end") return { ...event.data, startFiles };
  }
  throw new Error("no turn-end");
}

describe("files over /ui-chat, as useChat sends them", () => {
  it("a data-URL file part reaches the model byte for byte; /ui-messages gives it back as a file part at June's own route", async () => {
    const { chat, base, fake } = await setup();
    const response = await postJson(`${base}/ui-chat`, uiChatBody("c1", "What is this?", [{ url: PNG_URL, mediaType: "image/png", filename: "pixel.png" }]));
    expect(response.status).toBe(200);
    await response.text();
    expect(fake.requests).toHaveLength(1);
    const [sent] = fake.requests[0]!.files;
    expect(sent).toMatchObject({ type: "inline", mediaType: "image/png", role: "user" });
    expect(bytesOf(sent).equals(Buffer.from(PNG))).toBe(true);
    expect(JSON.stringify(fake.requests[0]!.body.input)).toContain("What is this?");

    // The journal keeps a reference, the store the bytes.
    const session = await chat.openSession("c1");
    const [turn] = await session.turns();
    expect(turn!.input).toBe("What is this?");
    expect(turn!.files).toEqual([expect.objectContaining({ mediaType: "image/png", filename: "pixel.png", size: PNG.byteLength })]);
    expect(JSON.stringify(await chat.store.read("c1"))).not.toContain(Buffer.from(PNG).toString("base64"));

    const messages = (await (await fetch(`${base}/sessions/c1/ui-messages`)).json()) as UIMessage[];
    const [file, text] = messages[0]!.parts as [{ type: string; url: string; mediaType: string; filename?: string }, { type: string; text: string }];
    expect(file).toEqual({ type: "file", mediaType: "image/png", filename: "pixel.png", url: `${base}/sessions/c1/files/${turn!.files![0]!.id}` });
    expect(text).toEqual({ type: "text", text: "What is this?" });
    expect(JSON.stringify(messages)).not.toContain("base64");

    const served = await fetch(file.url);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(Buffer.from(PNG))).toBe(true);
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(served.headers.get("content-disposition")).toBe(`inline; filename="pixel.png"; filename*=UTF-8''pixel.png`);
    expect(served.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("a later turn, sent with the restored messages (file parts at June's route), sends the earlier file to the model again", async () => {
    const { base, fake } = await setup();
    await (await postJson(`${base}/ui-chat`, uiChatBody("c2", "Look", [{ url: PNG_URL, mediaType: "image/png" }]))).text();
    const restored = (await (await fetch(`${base}/sessions/c2/ui-messages`)).json()) as UIMessage[];
    const next = await postJson(`${base}/ui-chat`, { id: "c2", trigger: "submit-message", messages: [...restored, { id: "m-2", role: "user", parts: [{ type: "text", text: "And now?" }] }] });
    expect(next.status).toBe(200);
    await next.text();
    expect(fake.requests).toHaveLength(2);
    expect(fake.requests[1]!.files).toHaveLength(1);
    expect(bytesOf(fake.requests[1]!.files[0]).equals(Buffer.from(PNG))).toBe(true);
  });

  it("a message of files alone is a turn", async () => {
    const { chat, base, fake } = await setup();
    const response = await postJson(`${base}/ui-chat`, uiChatBody("c3", "", [{ url: PNG_URL, mediaType: "image/png" }]));
    expect(response.status).toBe(200);
    await response.text();
    expect(fake.requests[0]!.files).toHaveLength(1);
    const [turn] = await (await chat.openSession("c3")).turns();
    expect(turn).toMatchObject({ input: "", status: "completed" });
    const messages = (await (await fetch(`${base}/sessions/c3/ui-messages`)).json()) as UIMessage[];
    expect(messages[0]!.parts.map((part) => part.type)).toEqual(["file"]);
  });

  it("a remote URL is a 400 naming the file, with no turn and no model call; with files.allowUrl the server fetches it", async () => {
    const remote = createServer((_, res) => {
      res.writeHead(200, { "content-type": "image/png" });
      res.end(PNG);
    });
    await new Promise<void>((resolve) => remote.listen(0, "127.0.0.1", resolve));
    onCleanup(() => new Promise<void>((resolve) => remote.close(() => resolve())));
    const url = `http://127.0.0.1:${(remote.address() as AddressInfo).port}/cat.png`;

    const refused = await setup();
    const response = await postJson(`${refused.base}/ui-chat`, uiChatBody("c4", "What is this?", [{ url, mediaType: "image/png", filename: "cat.png" }]));
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toContain("cat.png");
    expect(refused.fake.requests).toHaveLength(0);
    expect(await (await refused.chat.openSession("c4")).turns()).toEqual([]);
    await refused.fake.close();

    const allowed = await setup({ chat: { files: { allowUrl: true } } });
    const ok = await postJson(`${allowed.base}/ui-chat`, uiChatBody("c5", "What is this?", [{ url, mediaType: "image/png", filename: "cat.png" }]));
    expect(ok.status).toBe(200);
    await ok.text();
    expect(bytesOf(allowed.fake.requests[0]!.files[0]).equals(Buffer.from(PNG))).toBe(true);
  });

  it("over files.maxBytes is a 413, a type not allowed a 415, a bad data URL or bytes that are not the declared image a 400: each names the file, stores nothing and calls no model", async () => {
    const { chat, base, fake } = await setup({ chat: { files: { maxBytes: 32 } } });
    const cases: [number, { url: string; mediaType: string; filename: string }][] = [
      [413, { url: PNG_URL, mediaType: "image/png", filename: "big.png" }],
      [415, { url: "data:application/zip;base64,UEsDBA==", mediaType: "application/zip", filename: "archive.zip" }],
      [400, { url: "data:image/png;base64,@@@", mediaType: "image/png", filename: "broken.png" }],
      [400, { url: "data:image/png;base64,SGVsbG8=", mediaType: "image/png", filename: "fake.png" }],
    ];
    for (const [status, file] of cases) {
      const response = await postJson(`${base}/ui-chat`, uiChatBody(`limits-${status}-${file.filename.replace(".", "-")}`, "Hi", [file]));
      const body = (await response.json()) as { error: string };
      expect({ file: file.filename, status: response.status }).toEqual({ file: file.filename, status });
      expect(body.error).toContain(file.filename);
      expect(await (await chat.openSession(`limits-${status}-${file.filename.replace(".", "-")}`)).turns()).toEqual([]);
    }
    expect(fake.requests).toHaveLength(0);
    const session = await chat.openSession(`limits-413-big-png`);
    expect(await session.file("0".repeat(64))).toBeUndefined();
  });
});

describe.each([
  ["fileStore", (dir: string) => fileStore(join(dir, "chat"))],
  ["sqliteStore", (dir: string) => sqliteStore(join(dir, "chat.db"))],
] as const)("a server restarted over the same %s", (_name, storeIn) => {
  it("serves the file again, and a later turn sends it to the model again, from a new chat and handler", async () => {
    const dir = mkdtempSync(join(tmpdir(), "june-files-http-"));
    onCleanup(() => rmSync(dir, { recursive: true, force: true }));
    const stores: ChatStore[] = [];
    const open = () => {
      const store = storeIn(dir);
      stores.push(store);
      return store;
    };
    onCleanup(async () => {
      for (const store of stores) await (store as { close?: () => unknown }).close?.();
    });
    const first = await setup({ chat: { store: open() } });
    await (await postJson(`${first.base}/ui-chat`, uiChatBody("kept", "Look", [{ url: PNG_URL, mediaType: "image/png", filename: "pixel.png" }]))).text();
    await first.fake.close();

    const second = await setup({ chat: { store: open() } });
    const restored = (await (await fetch(`${second.base}/sessions/kept/ui-messages`)).json()) as UIMessage[];
    const part = restored[0]!.parts[0] as { url: string };
    const served = await fetch(part.url);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(Buffer.from(PNG))).toBe(true);
    await (await postJson(`${second.base}/ui-chat`, { id: "kept", trigger: "submit-message", messages: [...restored, { id: "m-2", role: "user", parts: [{ type: "text", text: "Again?" }] }] })).text();
    expect(bytesOf(second.fake.requests[0]!.files[0]).equals(Buffer.from(PNG))).toBe(true);
  });
});

describe("POST /sessions/:id/turns with files", () => {
  it("takes JSON files (base64 or data URLs) and multipart/form-data parts; the model gets the bytes", async () => {
    const { chat, base, fake } = await setup();
    const session = await chat.createSession();
    const json = await postJson(`${base}/sessions/${session.id}/turns`, {
      input: "Two files",
      files: [
        { data: Buffer.from(PNG).toString("base64"), mediaType: "image/png", filename: "pixel.png" },
        { data: `data:application/pdf;base64,${Buffer.from(PDF).toString("base64")}`, mediaType: "application/pdf", filename: "brief.pdf" },
      ],
    });
    expect(json.status).toBe(200);
    const ended = await turnEnd(json);
    expect(ended.status).toBe("completed");
    // The stream's turn-start names the files (references, never bytes).
    expect(ended.startFiles).toEqual([
      expect.objectContaining({ mediaType: "image/png", size: PNG.byteLength }),
      expect.objectContaining({ mediaType: "application/pdf", filename: "brief.pdf", size: PDF.byteLength }),
    ]);
    expect(fake.requests[0]!.files.map((f) => [f.mediaType, f.filename])).toEqual([["image/png", undefined], ["application/pdf", "brief.pdf"]]);
    expect(bytesOf(fake.requests[0]!.files[1]).equals(Buffer.from(PDF))).toBe(true);

    const form = new FormData();
    form.append("input", "");
    form.append("files", new Blob([PNG], { type: "image/png" }), "shot.png");
    const multipart = await fetch(`${base}/sessions/${session.id}/turns`, { method: "POST", body: form });
    expect(multipart.status).toBe(200);
    expect((await turnEnd(multipart)).status).toBe("completed");
    const last = fake.requests[1]!.files.at(-1);
    expect(bytesOf(last).equals(Buffer.from(PNG))).toBe(true);
    const turns = await session.turns();
    expect(turns.map((turn) => [turn.input, turn.files?.map((file) => file.filename)])).toEqual([
      ["Two files", ["pixel.png", "brief.pdf"]],
      ["", ["shot.png"]],
    ]);
  });

  it("refuses a file over the limit with 413 naming it, before any turn; malformed JSON files are 400s that say what is wrong", async () => {
    const { chat, base, fake } = await setup({ chat: { files: { maxBytes: 32 } } });
    const session = await chat.createSession();
    const form = new FormData();
    form.append("input", "Look");
    form.append("files", new Blob([PNG], { type: "image/png" }), "big.png");
    const response = await fetch(`${base}/sessions/${session.id}/turns`, { method: "POST", body: form });
    expect(response.status).toBe(413);
    expect(((await response.json()) as { error: string }).error).toContain("big.png");
    expect(await session.turns()).toEqual([]);

    const bad = await postJson(`${base}/sessions/${session.id}/turns`, { input: "Hi", files: [{ data: 42, mediaType: "image/png" }] });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toBe("files[0].data must be a string (base64 or a data: URL), got a number");
    expect(fake.requests).toHaveLength(0);
  });
});

describe("GET /sessions/:id/files/:fileId", () => {
  async function owned() {
    const context = await setup({ handler: { authorize: bearerAuthorize } });
    const as = (token: string) => ({ authorization: `Bearer ${token}` });
    const created = await postJson(`${context.base}/sessions`, {}, as("token-alice"));
    const { id } = (await created.json()) as { id: string };
    const turn = await postJson(`${context.base}/sessions/${id}/turns`, { input: "Mine", files: [{ data: PNG_URL, mediaType: "image/png", filename: "mine.png" }] }, as("token-alice"));
    await turnEnd(turn);
    const [record] = await (await context.chat.openSession(id)).turns();
    return { ...context, id, fileId: record!.files![0]!.id, as };
  }

  it("serves the bytes to the session's owner, and the same 404 to anyone else as for a file that is not there", async () => {
    const { base, id, fileId, as } = await owned();
    const url = `${base}/sessions/${id}/files/${fileId}`;
    const mine = await fetch(url, { headers: as("token-alice") });
    expect(mine.status).toBe(200);
    expect(Buffer.from(await mine.arrayBuffer()).equals(Buffer.from(PNG))).toBe(true);

    const theirs = await shape(await fetch(url, { headers: as("token-bob") }), { session: id, file: fileId });
    const missingFile = "f".repeat(64);
    const none = await shape(await fetch(`${base}/sessions/${id}/files/${missingFile}`, { headers: as("token-alice") }), { session: id, file: missingFile });
    const noSession = await shape(await fetch(`${base}/sessions/nobody/files/${fileId}`, { headers: as("token-bob") }), { session: "nobody", file: fileId });
    expect(theirs.status).toBe(404);
    expect(theirs).toEqual(none);
    expect(theirs).toEqual(noSession);
    expect(theirs.body).not.toContain("mine.png");
    expect((await fetch(url)).status).toBe(401);
  });

  it("serves a type a browser would run (HTML) as an attachment, sandboxed", async () => {
    const { chat, base } = await setup();
    const session = await chat.createSession();
    await turnEnd(await postJson(`${base}/sessions/${session.id}/turns`, { input: "A page", files: [{ data: "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==", mediaType: "text/html", filename: "page.html" }] }));
    const [turn] = await session.turns();
    const served = await fetch(`${base}/sessions/${session.id}/files/${turn!.files![0]!.id}`);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(served.headers.get("content-disposition")).toBe(`attachment; filename="page.html"; filename*=UTF-8''page.html`);
    expect(served.headers.get("content-security-policy")).toBe("default-src 'none'; sandbox");
    expect(served.headers.get("x-content-type-options")).toBe("nosniff");
  });
});
