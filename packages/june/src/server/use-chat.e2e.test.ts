import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createChat, modelResponder, type Chat, type Responder } from "june/chat";
import { createChatHandler, serve, type RunningServer } from "june/server";
import { scriptedModel, type ScriptCall } from "june/testing";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { approvalResponder } from "./__fixtures__/approval-responder.js";
import { serveStaticFile } from "./static-files.js";

/**
 * `useChat` for real: tests/browser/use-chat-app is a small React app (Vite, `@ai-sdk/react`'s `useChat`
 * with `DefaultChatTransport`), built by this test and served on one origin, talking to
 * `createChatHandler` on another (through its `cors` option), driven in Debian's headless Chromium: send
 * and stream, approve a tool with `addToolApprovalResponse`, regenerate, stop, reload.
 */

const CHROMIUM = "/usr/bin/chromium";
const CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];
/** Generous, since the machine may be busy; never a timing assertion. */
const WAIT = { timeout: 20_000 };
const APP_SOURCE = fileURLToPath(new URL("../../tests/browser/use-chat-app/", import.meta.url));

let tmp: string;
let browser: Browser;
let app: RunningServer;
let api: RunningServer;
let chat: Chat;
/** The model's next replies, one per model turn. */
const replies: (string | ScriptCall)[] = [];

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`This test needs Chromium at ${CHROMIUM}: install it with \`apt-get install -y chromium\``);
  tmp = await mkdtemp(join(tmpdir(), "june-use-chat-e2e-"));
  const outDir = join(tmp, "app");
  const [{ build }, { default: react }] = await Promise.all([import("vite"), import("@vitejs/plugin-react")]);
  await build({ configFile: false, root: APP_SOURCE, base: "./", plugins: [react()], logLevel: "warn", build: { outDir, emptyOutDir: true, chunkSizeWarningLimit: 4096 } });
  app = await serve({ handler: (request) => serveStaticFile(new URL(request.url).pathname, { root: outDir }) });

  const talk = modelResponder({ model: scriptedModel(() => replies.shift() ?? "(no reply scripted)") });
  const approvals = approvalResponder();
  // Tool turns go to a responder that asks for approval; the rest to a model.
  const responder: Responder = { kind: "custom", id: "browser-test", respond: (options) => (options.input.startsWith("Deploy") ? approvals : talk).respond(options) };
  chat = createChat({ responder });
  api = await serve({ handler: createChatHandler(chat, { basePath: "/api/june", cors: { origin: app.url } }) });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
  await api?.close();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

const assistantTexts = (page: Page) => page.locator('li[data-role="assistant"]').evaluateAll((items) => items.map((item) => item.textContent ?? ""));
const lastAssistant = (page: Page) => page.locator('li[data-role="assistant"]').last();
const status = (page: Page) => page.locator("main").getAttribute("data-status");

async function send(page: Page, text: string): Promise<void> {
  await page.getByLabel("Message").fill(text);
  await page.getByRole("button", { name: "Send" }).click();
}

describe("useChat from @ai-sdk/react in Chromium against createChatHandler", () => {
  it("sends and streams, approves a tool, regenerates, stops, and picks the session up after a reload", { timeout: 180_000 }, async () => {
    const page = await browser.newPage();
    const pageErrors: string[] = [];
    page.on("pageerror", (error) => pageErrors.push(error.message));
    const url = `${app.url}/?api=${encodeURIComponent(`${api.url}/api/june`)}&id=browser-chat`;
    try {
      await page.goto(url);
      await page.getByLabel("Message").waitFor(WAIT);

      // Send: the reply streams in (the page shows it part-way before the end).
      const words = ["Hello ", "from ", "June, ", "one ", "word ", "at ", "a ", "time."];
      replies.push({ text: words, delay: 120 });
      await page.evaluate(() => {
        const seen: string[] = [];
        (window as unknown as { seen: string[] }).seen = seen;
        new MutationObserver(() => {
          const text = document.querySelector('li[data-role="assistant"]:last-child')?.textContent;
          if (text && seen.at(-1) !== text) seen.push(text);
        }).observe(document.body, { subtree: true, childList: true, characterData: true });
      });
      await send(page, "Hi");
      await expect.poll(() => lastAssistant(page).textContent(), WAIT).toBe(words.join(""));
      const seen = await page.evaluate(() => (window as unknown as { seen: string[] }).seen);
      expect(seen.length).toBeGreaterThan(2);
      expect(words.join("").startsWith(seen[0]) && seen[0] !== words.join("")).toBe(true);
      await expect.poll(() => status(page), WAIT).toBe("ready");

      // Approve: the tool part asks, the button answers with addToolApprovalResponse, the message goes on.
      await send(page, "Deploy to staging");
      const approve = page.getByRole("button", { name: "Approve" });
      await approve.waitFor(WAIT);
      expect(await lastAssistant(page).textContent()).toContain("Checking.");
      await approve.click();
      await expect.poll(() => lastAssistant(page).locator(".text").allTextContents().then((t) => t.join("")), WAIT).toBe("Checking. Deployed 1. Done.");
      expect(await lastAssistant(page).locator(".tool").getAttribute("data-state")).toBe("output-available");
      await expect.poll(() => status(page), WAIT).toBe("ready");

      // Regenerate: a new answer in place of the last one, on a new branch of the session.
      replies.push("Hi, first take.");
      await send(page, "Say hi");
      await expect.poll(() => lastAssistant(page).textContent(), WAIT).toBe("Hi, first take.");
      await expect.poll(() => status(page), WAIT).toBe("ready");
      replies.push("Hi again, from a second branch.");
      await page.getByRole("button", { name: "Regenerate" }).click();
      await expect.poll(() => lastAssistant(page).textContent(), WAIT).toBe("Hi again, from a second branch.");
      await expect.poll(() => status(page), WAIT).toBe("ready");
      const session = await chat.openSession("browser-chat");
      const branch = await session.turns();
      expect(branch.map((t) => t.input)).toEqual(["Hi", "Deploy to staging", "Say hi"]);
      expect((await session.branches(branch[2].id)).map((t) => t.text)).toEqual(["Hi, first take.", "Hi again, from a second branch."]);

      // Stop: the turn is canceled in the journal, with what was streamed before.
      replies.push({ text: Array.from({ length: 200 }, (_, i) => `w${i} `), delay: 60 });
      await send(page, "Write a long story");
      await expect.poll(async () => ((await lastAssistant(page).textContent()) ?? "").startsWith("w0"), WAIT).toBe(true);
      await page.getByRole("button", { name: "Stop" }).click();
      await expect.poll(async () => (await session.turns()).at(-1)?.status, WAIT).toBe("canceled");
      expect((await session.turns()).at(-1)!.text ?? "").not.toContain("w199");
      await expect.poll(() => status(page), WAIT).toBe("ready");

      // Reload: the page comes back with the session's current branch, and goes on in the same session.
      await page.reload();
      await page.getByLabel("Message").waitFor(WAIT);
      await expect.poll(() => page.locator("li").count(), WAIT).toBe(8);
      const texts = await assistantTexts(page);
      expect(texts.slice(0, 3)).toEqual([words.join(""), "Checking. Deployed 1. Done.", "Hi again, from a second branch."]);
      replies.push("Welcome back.");
      await send(page, "Still there?");
      await expect.poll(() => lastAssistant(page).textContent(), WAIT).toBe("Welcome back.");
      expect((await session.turns()).map((t) => t.input)).toEqual(["Hi", "Deploy to staging", "Say hi", "Write a long story", "Still there?"]);
      expect(pageErrors).toEqual([]);
      expect(await page.locator(".error").count()).toBe(0);
    } finally {
      await page.close();
    }
  });
});
