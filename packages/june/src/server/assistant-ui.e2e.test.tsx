import { createChat, type Responder, type ResponderResult, type TurnEvent } from "june/chat";
import { approvalResponder } from "./__fixtures__/approval-responder.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AI7_LINE, startAssistantUiApp, type AssistantUiApp } from "./__fixtures__/assistant-ui-app.js";
import { docsBlock } from "./__fixtures__/docs-app.js";

/**
 * docs/server.md's assistant-ui recipe (`useChatRuntime`, `AssistantChatTransport` with `resumable`), taken from the
 * page as written, built with Vite against the AI SDK 7 line's packages (tests/browser/use-chat-ai7, where
 * assistant-ui is pinned) and driven in Debian's headless Chromium against `createChatHandler` on the same origin.
 * assistant-ui 0.15 and its AI SDK adapter 1.4 depend on `ai` 7 and `@ai-sdk/react` 4: the 6 line has no build of it.
 */

const WAIT = { timeout: 20_000 };
const LINE = AI7_LINE;
const MAIN = `import { createRoot } from "react-dom/client";
import { Assistant } from "./assistant";

createRoot(document.getElementById("root")!).render(<Assistant />);
`;
const SECOND_HALF = ["Second ", "half, ", "after ", "the ", "reload."];
const GATED_REPLY = `First half. ${SECOND_HALF.join("")}`;

let ui: AssistantUiApp | undefined;
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
          if (piece === SECOND_HALF[0]) await Promise.race([gate.promise, new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true }))]);
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
    ui = await startAssistantUiApp("assistant-ui", { "assistant.tsx": docsBlock("server.md", "// app/assistant.tsx"), "main.tsx": MAIN }, chat);
  }, 300_000);
  afterAll(() => ui?.close());
  if (LINE.skip) it.skip(`skipped: ${LINE.skip}`, () => {});

  it.skipIf(LINE.skip !== undefined)("streams a reply, a page reloaded mid-reply rejoins it through x-resumable-stream-id, and Approve answers a tool call", { timeout: 120_000 }, async () => {
    const page = await ui!.browser.newPage();
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
      await page.goto(ui!.url);
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

  it.skipIf(LINE.skip !== undefined)("Stop ends June's turn: canceled, through POST /ui-chat/:id/stop", { timeout: 120_000 }, async () => {
    const page = await ui!.browser.newPage();
    const pageErrors: string[] = [];
    page.on("pageerror", (error) => pageErrors.push(error.message));
    const stops: number[] = [];
    page.on("response", (response) => {
      if (response.request().method() === "POST" && /\/api\/june\/ui-chat\/[^/]+\/stop$/.test(new URL(response.url()).pathname)) stops.push(response.status());
    });
    const assistant = page.locator('[data-role="assistant"]');
    try {
      gate = deferred<void>();
      const before = new Set((await chat.listSessions()).map((info) => info.id));
      await page.goto(ui!.url);
      await page.getByLabel("Message").fill("Tell me another story");
      await page.getByRole("button", { name: "Send" }).click();
      await expect.poll(async () => (await assistant.last().textContent()) ?? "", WAIT).toContain("First half. ");
      const sessionId = (await chat.listSessions()).map((info) => info.id).find((id) => !before.has(id))!;
      const session = await chat.openSession(sessionId);
      expect((await session.turns())[0]?.status).toBe("running");
      await page.getByRole("button", { name: "Stop" }).click();
      await expect.poll(() => stops, WAIT).toEqual([200]);
      await expect.poll(async () => (await session.turns())[0]?.status, WAIT).toBe("canceled");
      expect((await session.turns())[0]).toMatchObject({ input: "Tell me another story" });
      expect(pageErrors).toEqual([]);
    } finally {
      gate.resolve();
      await page.close();
    }
  });
});
