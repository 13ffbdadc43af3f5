import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createChat, modelResponder, type Chat, type Responder, type TurnEvent, type ResponderResult } from "june/chat";
import { createChatHandler, serve, type RunningServer } from "june/server";
import { scriptedModel, type ScriptCall } from "june/testing";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { approvalResponder } from "./__fixtures__/approval-responder.js";
import { buildUseChatApp, CHROMIUM, CHROMIUM_ARGS, USE_CHAT_LINES, type UseChatLine } from "./__fixtures__/use-chat-app.js";

/**
 * `useChat` for real, of both AI SDK lines: tests/browser/use-chat-app is a small React app (Vite,
 * `@ai-sdk/react`'s `useChat` with `DefaultChatTransport`), built by this test once per line and served on
 * one origin, talking to `createChatHandler` on another (through its `cors` option), driven in Debian's
 * headless Chromium: send and stream, approve a tool with `addToolApprovalResponse`, regenerate, stop,
 * reload; and with `useChat({ resume: true })`, reload mid-reply and mid-approval and keep the reply.
 *
 * - The 6 line (`@ai-sdk/react` 3, `ai` 6): the repo's own install, where the repo installs `ai` 6.
 * - The 7 line (`@ai-sdk/react` 4, `ai` 7, Node 22 or newer): tests/browser/use-chat-ai7, its own package.json
 *   and package-lock.json, installed there with `npm ci` by this test when it is not yet.
 */

/** Generous, since the machine may be busy; never a timing assertion. */
const WAIT = { timeout: 20_000 };
const LINES: UseChatLine[] = USE_CHAT_LINES;

let tmp: string;
let browser: Browser;
let api: RunningServer;
/** The same chat served with `uiChat: { cancelOnDisconnect: false }`, for pages that resume. */
let resumeApi: RunningServer;
let chat: Chat;
/** The model's next replies, one per model turn. */
const replies: (string | ScriptCall)[] = [];
let gate = deferred<void>();

/** `Promise.withResolvers` (Node 22 and newer) for Node 20. */
function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void; reject: (error: unknown) => void } {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/**
 * Turns whose input starts with "Slow": "First half. ", then a wait until the test opens the gate, then
 * the rest, word by word.
 */
function gatedResponder(): Responder {
  return {
    kind: "custom",
    id: "gated",
    respond({ signal }) {
      let text = "";
      const result = deferred<ResponderResult>();
      result.promise.catch(() => {});
      async function* events(): AsyncGenerator<TurnEvent> {
        try {
          for (const piece of ["First half. ", ...SECOND_HALF]) {
            if (piece === SECOND_HALF[0]) await Promise.race([gate.promise, new Promise((_, reject) => signal.addEventListener("abort", () => reject(signal.reason), { once: true }))]);
            else if (text !== "") await new Promise((resolve) => setTimeout(resolve, 40));
            signal.throwIfAborted();
            text += piece;
            yield { type: "text-delta", text: piece };
          }
          result.resolve({ text });
        } catch (error) {
          result.reject(error);
          throw error;
        }
      }
      return { result: result.promise, events: events() };
    },
  };
}
const SECOND_HALF = ["Second ", "half, ", "streamed ", "after ", "the ", "reload."];
const GATED_REPLY = `First half. ${SECOND_HALF.join("")}`;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`This test needs Chromium at ${CHROMIUM}: install it with \`apt-get install -y chromium\``);
  tmp = await mkdtemp(join(tmpdir(), "june-use-chat-e2e-"));
  const talk = modelResponder({ model: scriptedModel(() => replies.shift() ?? "(no reply scripted)") });
  const approvals = approvalResponder();
  const twoApprovals = approvalResponder({ calls: 2 });
  const gated = gatedResponder();
  // Tool turns go to a responder that asks for approval, "Slow" ones wait for the test; the rest to a model.
  const responder: Responder = {
    kind: "custom",
    id: "browser-test",
    respond: (options) => {
      const { input } = options;
      return (input.startsWith("Deploy twice") ? twoApprovals : input.startsWith("Deploy") ? approvals : input.startsWith("Slow") ? gated : talk).respond(options);
    },
  };
  chat = createChat({ responder });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await api?.close();
  await resumeApi?.close();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

/** Builds the app against `line`'s packages and serves it (with its bundled JavaScript); the handlers allow its origin. */
async function buildApp(line: UseChatLine): Promise<{ app: RunningServer; bundle: string }> {
  const outDir = join(tmp, `app-${line.modules ? "ai7" : "root"}`);
  // The 7 line's app is the same source, its packages taken from the fixture's own install.
  const app = await buildUseChatApp(line, outDir);
  await api?.close();
  await resumeApi?.close();
  api = await serve({ handler: createChatHandler(chat, { basePath: "/api/june", cors: { origin: app.url } }) });
  resumeApi = await serve({ handler: createChatHandler(chat, { basePath: "/api/june", cors: { origin: app.url }, uiChat: { cancelOnDisconnect: false } }) });
  const scripts = (await readdir(join(outDir, "assets"))).filter((name) => name.endsWith(".js"));
  const bundle = (await Promise.all(scripts.map((name) => readFile(join(outDir, "assets", name), "utf8")))).join("\n");
  return { app, bundle };
}


/** Each assistant message's text parts, joined (its tool parts left out). */
const assistantTexts = (page: Page) =>
  page.locator('li[data-role="assistant"]').evaluateAll((items) => items.map((item) => Array.from(item.querySelectorAll(".text"), (text) => text.textContent ?? "").join("")));
/** Each assistant message's tool parts, by state. */
const toolStates = (page: Page) => page.locator('li[data-role="assistant"]').evaluateAll((items) => items.map((item) => Array.from(item.querySelectorAll(".tool"), (tool) => tool.getAttribute("data-state"))));
const lastAssistant = (page: Page) => page.locator('li[data-role="assistant"]').last();
const status = (page: Page) => page.locator("main").getAttribute("data-status");

async function send(page: Page, text: string): Promise<void> {
  await page.getByLabel("Message").fill(text);
  await page.getByRole("button", { name: "Send" }).click();
}

async function newPage(): Promise<{ page: Page; pageErrors: string[] }> {
  const page = await browser.newPage();
  const pageErrors: string[] = [];
  page.on("pageerror", (error) => pageErrors.push(error.message));
  return { page, pageErrors };
}

describe.each(LINES)("useChat from $name in Chromium against createChatHandler", (line) => {
  let app: RunningServer;
  let bundle: string;
  beforeAll(async () => {
    if (!line.skip) ({ app, bundle } = await buildApp(line));
  }, 300_000);
  afterAll(async () => {
    await app?.close();
  });
  const run = line.skip ? it.skip : it;
  if (line.skip) it.skip(`skipped: ${line.skip}`, () => {});

  run("sends and streams, approves a tool, regenerates, stops, and picks the session up after a reload", { timeout: 180_000 }, async () => {
    // The line the page runs: only the AI SDK 7 UI message stream reader knows the `reset-step` chunk.
    expect(/["'`]reset-step["'`]/.test(bundle)).toBe(line.modules !== undefined);
    const chatId = `browser-chat-${line.modules ? 7 : 6}`;
    const { page, pageErrors } = await newPage();
    const url = `${app.url}/?api=${encodeURIComponent(`${api.url}/api/june`)}&id=${chatId}`;
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
      const session = await chat.openSession(chatId);
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
      // The ended turn's approved call is still shown, decided.
      expect((await toolStates(page)).slice(0, 3)).toEqual([[], ["output-available"], []]);
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

  run("with resume: true, a reload mid-reply or mid-approval keeps the reply; Stop stops it; nothing running resumes nothing", { timeout: 180_000 }, async () => {
    const chatId = `browser-resume-${line.modules ? 7 : 6}`;
    const { page, pageErrors } = await newPage();
    const resumes: number[] = [];
    page.on("response", (response) => {
      if (response.request().method() === "GET" && new URL(response.url()).pathname === `/api/june/ui-chat/${chatId}/stream`) resumes.push(response.status());
    });
    const url = `${app.url}/?api=${encodeURIComponent(`${resumeApi.url}/api/june`)}&id=${chatId}&resume`;
    const session = async () => chat.openSession(chatId);
    try {
      // A new chat: the resume request on mount finds nothing to resume.
      await page.goto(url);
      await page.getByLabel("Message").waitFor(WAIT);
      await expect.poll(() => resumes, WAIT).toEqual([204]);

      // Reload mid-reply: the turn goes on, and the reloaded page streams the rest of it into the same message.
      gate = deferred<void>();
      await send(page, "Slow story");
      await expect.poll(() => lastAssistant(page).textContent(), WAIT).toBe("First half. ");
      await page.reload();
      await page.getByLabel("Message").waitFor(WAIT);
      await expect.poll(() => resumes.length, WAIT).toBe(2);
      expect(resumes[1]).toBe(200);
      expect((await (await session()).turns())[0].status).toBe("running");
      expect(await lastAssistant(page).textContent()).toBe("First half. ");
      gate.resolve();
      await expect.poll(() => lastAssistant(page).textContent(), WAIT).toBe(GATED_REPLY);
      await expect.poll(() => status(page), WAIT).toBe("ready");
      expect(await page.locator('li[data-role="assistant"]').count()).toBe(1);
      expect((await (await session()).turns())[0]).toMatchObject({ status: "completed", text: GATED_REPLY });

      // Reload mid-approval: the first of two tool calls approved, the second waiting. The reloaded page shows
      // the first done, asks for the second only, and approving it goes on in the same message.
      const approve = page.getByRole("button", { name: "Approve" });
      const replyText = () => lastAssistant(page).locator(".text").allTextContents().then((t) => t.join(""));
      await send(page, "Deploy twice after a reload");
      await approve.waitFor(WAIT);
      await approve.click();
      await expect.poll(replyText, WAIT).toBe("Checking. Deployed 1. ");
      await expect.poll(() => approve.count(), WAIT).toBe(1);
      await page.reload();
      await page.getByLabel("Message").waitFor(WAIT);
      await expect.poll(() => resumes.length, WAIT).toBe(3);
      expect(resumes[2]).toBe(200);
      await expect.poll(() => lastAssistant(page).locator(".tool").evaluateAll((tools) => tools.map((tool) => tool.getAttribute("data-state"))), WAIT).toEqual(["output-available", "approval-requested"]);
      expect(await approve.count()).toBe(1);
      await approve.click();
      await expect.poll(replyText, WAIT).toBe("Checking. Deployed 1. Deployed 2. Done.");
      await expect.poll(() => status(page), WAIT).toBe("ready");
      expect(await page.locator('li[data-role="assistant"]').count()).toBe(2);
      expect((await (await session()).turns())[1]).toMatchObject({ status: "completed", text: "Checking. Deployed 1. Deployed 2. Done." });

      // Stop: closing the request no longer stops a turn here; the page's Stop asks the server to.
      gate = deferred<void>();
      await send(page, "Slow again");
      await expect.poll(() => lastAssistant(page).textContent(), WAIT).toBe("First half. ");
      await page.getByRole("button", { name: "Stop" }).click();
      await expect.poll(async () => (await (await session()).turns())[2]?.status, WAIT).toBe("canceled");
      await expect.poll(() => status(page), WAIT).toBe("ready");
      gate.resolve();

      // Nothing runs: a reload resumes nothing, and shows the session as it is.
      await page.reload();
      await page.getByLabel("Message").waitFor(WAIT);
      await expect.poll(() => resumes.length, WAIT).toBe(4);
      expect(resumes[3]).toBe(204);
      expect((await assistantTexts(page)).slice(0, 2)).toEqual([GATED_REPLY, "Checking. Deployed 1. Deployed 2. Done."]);
      expect((await toolStates(page)).slice(0, 2)).toEqual([[], ["output-available", "output-available"]]);
      const turns = await (await session()).turns();
      expect(await page.locator('li[data-role="assistant"]').evaluateAll((items) => items.map((item) => item.getAttribute("data-id")))).toEqual(turns.map((t) => t.id));
      expect(await status(page)).toBe("ready");
      expect(pageErrors).toEqual([]);
      expect(await page.locator(".error").count()).toBe(0);
    } finally {
      await page.close();
    }
  });
});
