import { mkdtemp, rm } from "node:fs/promises";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createChat, fileStore, type Chat } from "june/chat";
import { createOpenAI } from "june/sdk/openai";
import { createChatHandler, serve, type RunningServer } from "june/server";
import { createFakeOpenAIServer, type FakeModelInlineFile, type FakeOpenAIServer } from "june/testing";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildUseChatApp, CHROMIUM, CHROMIUM_ARGS, USE_CHAT_LINES } from "./__fixtures__/use-chat-app.js";

/**
 * A PNG sent the way a useChat app sends it (`sendMessage({ text, files })`, a data URL), in Chromium, to a
 * June server whose chat runs the real OpenAI provider against the fake OpenAI server, which records the bytes
 * the model got; after a reload the page shows the image again, from `/ui-messages` and June's own file route
 * (which the browser reaches with the page's sign-in cookie), and the next turn sends it to the model again,
 * from the store. The file route gives the bytes to the owner and the same 404 as a missing file to another user.
 */
const WAIT = { timeout: 20_000 };
/** A 2x1 PNG (so its decoded width shows the browser got these bytes). */
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAIAAAB7QOjdAAAAD0lEQVR4nGP4z8DAwPAfAAcAAf9+CLHQAAAAAElFTkSuQmCC", "base64");

let tmp: string;
let browser: Browser;
let fake: FakeOpenAIServer;
let chat: Chat;
let api: RunningServer;

/** `authorize`: the user the `june-user` cookie names (the app's `?user=` sets it), else 401. */
function cookieUser(request: Request): { owner: string } | false {
  const match = /(?:^|;\s*)june-user=([^;]+)/.exec(request.headers.get("cookie") ?? "");
  return match ? { owner: decodeURIComponent(match[1]!) } : false;
}

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`This test needs Chromium at ${CHROMIUM}: install it with \`apt-get install -y chromium\``);
  tmp = await mkdtemp(join(tmpdir(), "june-use-chat-files-"));
  fake = await createFakeOpenAIServer({ script: ({ index }) => (index === 0 ? "A tiny picture." : "Still the same picture.") });
  chat = createChat({ model: createOpenAI({ baseURL: fake.url, apiKey: "sk-test" })("gpt-5-mini"), store: fileStore(join(tmp, "store")) });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await api?.close();
  await fake?.close();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

const lastAssistant = (page: Page) => page.locator('li[data-role="assistant"]').last();

describe.each(USE_CHAT_LINES)("a PNG through useChat from $name, to the real OpenAI provider and back after a reload", (line) => {
  let app: RunningServer;
  beforeAll(async () => {
    if (line.skip) return;
    app = await buildUseChatApp(line, join(tmp, `app-${line.modules ? "ai7" : "root"}`));
    await api?.close();
    api = await serve({ handler: createChatHandler(chat, { basePath: "/api/june", cors: { origin: app.url, credentials: true }, authorize: cookieUser }) });
  }, 300_000);
  afterAll(async () => {
    await app?.close();
  });
  const run = line.skip ? it.skip : it;
  if (line.skip) it.skip(`skipped: ${line.skip}`, () => {});

  run("the model gets the bytes; the reloaded page shows the image from June's route; only its owner gets it", { timeout: 180_000 }, async () => {
    const chatId = `files-${line.modules ? 7 : 6}`;
    const before = fake.requests.length;
    const page = await browser.newPage();
    const pageErrors: string[] = [];
    page.on("pageerror", (error) => pageErrors.push(error.message));
    try {
      await page.goto(`${app.url}/?api=${encodeURIComponent(`${api.url}/api/june`)}&id=${chatId}&user=alice`);
      await page.getByLabel("Message").waitFor(WAIT);
      await page.getByLabel("Attach").setInputFiles({ name: "pixel.png", mimeType: "image/png", buffer: PNG });
      await page.getByLabel("Message").fill("What is this?");
      await page.getByRole("button", { name: "Send" }).click();
      await expect.poll(() => lastAssistant(page).textContent(), WAIT).toBe("A tiny picture.");

      // The model got the PNG, byte for byte, from useChat's data URL.
      const sent = fake.requests[before]!.files;
      expect(sent.map((file) => [file.type, file.mediaType])).toEqual([["inline", "image/png"]]);
      expect(Buffer.from((sent[0] as FakeModelInlineFile).data).equals(PNG)).toBe(true);
      const [turn] = await (await chat.openSession(chatId)).turns();
      const fileId = turn!.files![0]!.id;
      const fileUrl = `${api.url}/api/june/sessions/${chatId}/files/${fileId}`;

      // Reload: the message comes back from /ui-messages with the image at June's route, loaded by the browser.
      await page.reload();
      await page.getByLabel("Message").waitFor(WAIT);
      await expect.poll(() => page.locator("li").count(), WAIT).toBe(2);
      const image = page.locator('li[data-role="user"] img.file');
      expect(await image.getAttribute("src")).toBe(fileUrl);
      await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), WAIT).toBe(2);

      // The next turn sends the earlier image again, read from the store.
      await page.getByLabel("Message").fill("And now?");
      await page.getByRole("button", { name: "Send" }).click();
      await expect.poll(() => lastAssistant(page).textContent(), WAIT).toBe("Still the same picture.");
      const again = fake.requests[before + 1]!.files;
      expect(again).toHaveLength(1);
      expect(Buffer.from((again[0] as FakeModelInlineFile).data).equals(PNG)).toBe(true);
      expect(pageErrors).toEqual([]);
      expect(await page.locator(".error").count()).toBe(0);

      // The route: the bytes to alice, to bob the same 404 as a file that is not there.
      const as = (user: string) => ({ headers: { cookie: `june-user=${user}` } });
      const mine = await fetch(fileUrl, as("alice"));
      expect(mine.status).toBe(200);
      expect(Buffer.from(await mine.arrayBuffer()).equals(PNG)).toBe(true);
      const theirs = await fetch(fileUrl, as("bob"));
      const missing = await fetch(`${api.url}/api/june/sessions/${chatId}/files/${"0".repeat(64)}`, as("alice"));
      expect([theirs.status, missing.status]).toEqual([404, 404]);
      expect((await theirs.text()).replace(fileId, "ID")).toBe((await missing.text()).replace("0".repeat(64), "ID"));
    } finally {
      await page.close();
    }
  });
});
