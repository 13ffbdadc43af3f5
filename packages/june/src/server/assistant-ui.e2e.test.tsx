import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createChat, type Responder, type ResponderResult, type TurnEvent } from "june/chat";
import { approvalResponder } from "./__fixtures__/approval-responder.js";
import { createChatHandler, type RunningServer } from "june/server";
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { docsBlock, serveDocsApp, writeDocsApp } from "./__fixtures__/docs-app.js";
import { CHROMIUM, CHROMIUM_ARGS, USE_CHAT_LINES } from "./__fixtures__/use-chat-app.js";

/**
 * docs/server.md's assistant-ui recipe (`useChatRuntime`, `AssistantChatTransport` with `resumable`), taken from the
 * page as written, built with Vite against the AI SDK 7 line's packages (tests/browser/use-chat-ai7, where
 * assistant-ui is pinned) and driven in Debian's headless Chromium against `createChatHandler` on the same origin.
 * assistant-ui 0.15 and its AI SDK adapter 1.4 depend on `ai` 7 and `@ai-sdk/react` 4: the 6 line has no build of it.
 */

const WAIT = { timeout: 20_000 };
const LINE = USE_CHAT_LINES.find((line) => line.modules !== undefined)!;
const MAIN = `import { createRoot } from "react-dom/client";
import { Assistant } from "./assistant";

createRoot(document.getElementById("root")!).render(<Assistant />);
`;
const SECOND_HALF = ["Second ", "half, ", "after ", "the ", "reload."];
const GATED_REPLY = `First half. ${SECOND_HALF.join("")}`;

let tmp: string;
let browser: Browser;
let app: RunningServer | undefined;
let gate = deferred<void>();

function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((res) => (resolve = res));
  return { promise, resolve };
}

/** "First half. ", then a wait for the test's gate, then the rest word by word. */
const gated: Responder = {
    kind: "custom",
    id: "gated",
    respond({ signal }) {
      let text = "";
      const result = deferred<ResponderResult>();
      async function* events(): AsyncGenerator<TurnEvent> {
        for (const piece of ["First half. ", ...SECOND_HALF]) {
          if (piece === SECOND_HALF[0]) await gate.promise;
          else if (text !== "") await new Promise((resolve) => setTimeout(resolve, 30));
          signal.throwIfAborted();
          text += piece;
          yield { type: "text-delta", text: piece };
        }
        result.resolve({ text });
      }
      return { result: result.promise, events: events() };
    },
};
const approvals = approvalResponder();
/** "Deploy ..." asks for approval of a tool call; the rest is the gated reply. */
const chat = createChat({
  responder: { kind: "custom", id: "assistant-ui-test", respond: (options) => (options.input.startsWith("Deploy") ? approvals : gated).respond(options) },
});

describe("docs/server.md's assistant-ui recipe in Chromium", () => {
  beforeAll(async () => {
    if (LINE.skip) return;
    if (!existsSync(CHROMIUM)) throw new Error(`This test needs Chromium at ${CHROMIUM}: install it with \`apt-get install -y chromium\``);
    tmp = await mkdtemp(join(tmpdir(), "june-assistant-ui-e2e-"));
    const root = await writeDocsApp("assistant-ui", { "assistant.tsx": docsBlock("server.md", "// app/assistant.tsx"), "main.tsx": MAIN });
    app = await serveDocsApp(LINE, root, join(tmp, "ai7"), createChatHandler(chat, { basePath: "/api/june", uiChat: { cancelOnDisconnect: false } }));
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
    await app?.close();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });
  if (LINE.skip) it.skip(`skipped: ${LINE.skip}`, () => {});

  it.skipIf(LINE.skip !== undefined)("streams a reply, a page reloaded mid-reply rejoins it through x-resumable-stream-id, and Approve answers a tool call", { timeout: 120_000 }, async () => {
    const page = await browser.newPage();
    const pageErrors: string[] = [];
    page.on("pageerror", (error) => pageErrors.push(error.message));
    const resumes: number[] = [];
    page.on("response", (response) => {
      if (response.request().method() === "GET" && /\/api\/june\/ui-chat\/[^/]+\/stream$/.test(new URL(response.url()).pathname)) resumes.push(response.status());
    });
    const assistant = page.locator('[data-role="assistant"]');
    // The reply's text, less the dot assistant-ui draws while a message runs.
    const replyText = async () => ((await assistant.last().textContent()) ?? "").replace(/ ●$/, "");
    try {
      gate = deferred<void>();
      await page.goto(app!.url);
      await page.getByLabel("Message").fill("Tell me a story");
      await page.getByRole("button", { name: "Send" }).click();
      await expect.poll(replyText, WAIT).toBe("First half. ");
      const sessions = await chat.listSessions();
      expect(sessions).toHaveLength(1);
      const sessionId = sessions[0]!.id;

      // Reload mid-reply: assistant-ui finds the stream id it kept and asks June's resume route for the rest.
      await page.reload();
      await expect.poll(() => resumes, WAIT).toEqual([200]);
      await expect.poll(replyText, WAIT).toBe("First half. ");
      gate.resolve();
      await expect.poll(replyText, WAIT).toBe(GATED_REPLY);
      expect(await assistant.count()).toBe(1);
      const session = await chat.openSession(sessionId);
      await expect.poll(async () => (await session.turns())[0]?.status, WAIT).toBe("completed");
      expect((await session.turns())[0]).toMatchObject({ input: "Tell me a story", text: GATED_REPLY });

      // Approve: the tool part asks, Approve answers the running turn, and the same message goes on.
      await page.getByLabel("Message").fill("Deploy to staging");
      await page.getByRole("button", { name: "Send" }).click();
      const approve = page.getByRole("button", { name: "Approve" });
      await approve.waitFor(WAIT);
      expect(await replyText()).toContain("Checking.");
      await approve.click();
      await expect.poll(replyText, WAIT).toContain("Deployed 1. Done.");
      expect(await assistant.count()).toBe(2);
      // The reloaded page is a new assistant-ui thread (no thread list here), so a new June session.
      const deployed = async () => {
        for (const info of await chat.listSessions()) for (const turn of await (await chat.openSession(info.id)).turns()) if (turn.input === "Deploy to staging") return turn;
        return undefined;
      };
      await expect.poll(async () => (await deployed())?.status, WAIT).toBe("completed");
      expect((await deployed())?.text).toBe("Checking. Deployed 1. Done.");
      expect(pageErrors).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
