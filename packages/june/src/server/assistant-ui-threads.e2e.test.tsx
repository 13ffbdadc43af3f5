import { tmpdir } from "node:os";
import { join } from "node:path";
import { createChat, modelResponder, type Responder, type TurnEvent } from "june/chat";
import { scriptedModel } from "june/testing";
import { approvalResponder } from "./__fixtures__/approval-responder.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AI7_LINE, startAssistantUiApp, type AssistantUiApp } from "./__fixtures__/assistant-ui-app.js";
import { docsBlock } from "./__fixtures__/docs-app.js";

/**
 * docs/server.md's assistant-ui thread list (a `RemoteThreadListAdapter` over `/sessions`, a history adapter over
 * `/sessions/:id/ui-messages`), taken from the page as written beside the recipe's `assistant.tsx`, built with Vite
 * against the AI SDK 7 line's packages and driven in Debian's headless Chromium against `createChatHandler`.
 */

const WAIT = { timeout: 20_000 };
const LINE = AI7_LINE;
const MAIN = `import { createRoot } from "react-dom/client";
import { AssistantWithThreads } from "./assistant-threads";

createRoot(document.getElementById("root")!).render(<AssistantWithThreads />);
`;

let ui: AssistantUiApp | undefined;

/** Answers "Echo: <input>", word by word. */
const echo: Responder = {
  kind: "custom",
  id: "echo",
  respond({ input, signal }) {
    const pieces = ["Echo: ", ...input.split(/(?<= )/)];
    async function* events(): AsyncGenerator<TurnEvent> {
      for (const piece of pieces) {
        await new Promise((resolve) => setTimeout(resolve, 10));
        signal.throwIfAborted();
        yield { type: "text-delta", text: piece };
      }
    }
    return { result: Promise.resolve({ text: pieces.join("") }), events: events() };
  },
};
const approvals = approvalResponder();
/** A model that thinks, then answers citing a source (the AI SDK's reasoning and source parts). */
const thinker = modelResponder({
  model: scriptedModel({ reasoning: ["Check ", "the guide."], text: "It is 42.", sources: [{ url: "https://example.com/guide", title: "The guide" }] }),
});
/** "Deploy ..." asks for approval of a tool call; "Think ..." goes to the thinking model; anything else is echoed. */
const chat = createChat({
  responder: {
    kind: "custom",
    id: "assistant-ui-threads-test",
    respond: (options) => (options.input.startsWith("Deploy") ? approvals : options.input.startsWith("Think") ? thinker : echo).respond(options),
  },
});

describe("docs/server.md's assistant-ui thread list over June's sessions, in Chromium", () => {
  beforeAll(async () => {
    if (LINE.skip) return;
    ui = await startAssistantUiApp("assistant-ui-threads", {
      "assistant.tsx": docsBlock("server.md", "// app/assistant.tsx"),
      "assistant-threads.tsx": docsBlock("server.md", "// app/assistant-threads.tsx"),
      "main.tsx": MAIN,
    }, chat);
  }, 300_000);
  afterAll(() => ui?.close());
  if (LINE.skip) it.skip(`skipped: ${LINE.skip}`, () => {});
  it.skip("skipped on the AI SDK 6 line: assistant-ui 0.15 and @assistant-ui/react-ai-sdk 1.4 depend on ai 7 and @ai-sdk/react 4", () => {});

  it.skipIf(LINE.skip !== undefined)("two threads are two sessions; switching shows each one's messages; a reload opens the same thread, whose next message continues its session", { timeout: 120_000 }, async () => {
    const page = await ui!.browser.newPage();
    const pageErrors: string[] = [];
    page.on("pageerror", (error) => pageErrors.push(error.message));
    const messages = async () => {
      const texts = await page.locator("[data-role]").evaluateAll((nodes) => nodes.map((node) => `${node.getAttribute("data-role")}: ${(node.textContent ?? "").replace(/ ●$/, "")}`));
      return texts;
    };
    const send = async (text: string) => {
      await page.getByLabel("Message").fill(text);
      await page.getByRole("button", { name: "Send" }).click();
    };
    const threadOf = () => new URL(page.url()).searchParams.get("thread");
    const sessionTurns = async (id: string) => (await (await chat.openSession(id)).turns()).map((turn) => [turn.input, turn.status]);
    try {
      await page.goto(ui!.url);
      await send("Hello alpha");
      await expect.poll(messages, WAIT).toEqual(["user: Hello alpha", "assistant: Echo: Hello alpha"]);
      await expect.poll(threadOf, WAIT).not.toBeNull();
      const alpha = threadOf()!;
      expect(await chat.listSessions()).toEqual([expect.objectContaining({ id: alpha })]);

      // A second thread: a new June session.
      await page.getByRole("button", { name: "New thread" }).click();
      await expect.poll(messages, WAIT).toEqual([]);
      await send("Hello beta");
      await expect.poll(messages, WAIT).toEqual(["user: Hello beta", "assistant: Echo: Hello beta"]);
      await expect.poll(threadOf, WAIT).not.toBe(alpha);
      const beta = threadOf()!;
      expect(beta).not.toBeNull();
      expect((await chat.listSessions()).map((info) => info.id).sort()).toEqual([alpha, beta].sort());
      await expect.poll(() => sessionTurns(beta), WAIT).toEqual([["Hello beta", "completed"]]);

      // The list names both threads by their first input; switching to alpha shows alpha's messages.
      await page.reload();
      const items = page.locator(".thread");
      await expect.poll(() => items.allTextContents(), WAIT).toEqual(expect.arrayContaining([expect.stringContaining("Hello alpha"), expect.stringContaining("Hello beta")]));
      await expect.poll(messages, WAIT).toEqual(["user: Hello beta", "assistant: Echo: Hello beta"]);
      await items.filter({ hasText: "Hello alpha" }).getByRole("button", { name: "Hello alpha" }).click();
      await expect.poll(messages, WAIT).toEqual(["user: Hello alpha", "assistant: Echo: Hello alpha"]);
      await expect.poll(threadOf, WAIT).toBe(alpha);

      // A reload opens alpha again, its messages loaded from June; its next message is a turn of the same session.
      await page.reload();
      await expect.poll(messages, WAIT).toEqual(["user: Hello alpha", "assistant: Echo: Hello alpha"]);
      await send("Once more");
      await expect.poll(messages, WAIT).toEqual(["user: Hello alpha", "assistant: Echo: Hello alpha", "user: Once more", "assistant: Echo: Once more"]);
      await expect.poll(() => sessionTurns(alpha), WAIT).toEqual([["Hello alpha", "completed"], ["Once more", "completed"]]);
      expect(await chat.listSessions()).toHaveLength(2);

      // A reload while an approval is pending shows it again (from /ui-messages), and Approve goes on with the turn.
      await send("Deploy to staging");
      const approve = page.getByRole("button", { name: "Approve" });
      await approve.waitFor(WAIT);
      await page.reload();
      await approve.waitFor(WAIT);
      await expect.poll(messages, WAIT).toEqual(["user: Hello alpha", "assistant: Echo: Hello alpha", "user: Once more", "assistant: Echo: Once more", "user: Deploy to staging", expect.stringContaining("assistant: Checking.")]);
      await approve.click();
      await expect.poll(async () => (await messages()).at(-1), WAIT).toContain("Deployed 1. Done.");
      await expect.poll(() => sessionTurns(alpha), WAIT).toEqual([["Hello alpha", "completed"], ["Once more", "completed"], ["Deploy to staging", "completed"]]);
      expect(await page.locator('[data-role="assistant"]').count()).toBe(3);

      // Delete removes the session.
      await items.filter({ hasText: "Hello beta" }).getByRole("button", { name: "Delete" }).click();
      await expect.poll(async () => (await chat.listSessions()).map((info) => info.id), WAIT).toEqual([alpha]);
      expect(pageErrors).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it.skipIf(LINE.skip !== undefined)("shows the model's reasoning collapsed (opened, its text) and the reply's source as a link, still there after a reload (from /ui-messages)", { timeout: 120_000 }, async () => {
    const page = await ui!.browser.newPage();
    const pageErrors: string[] = [];
    page.on("pageerror", (error) => pageErrors.push(error.message));
    const assistant = page.locator('[data-role="assistant"]');
    const source = assistant.getByRole("link", { name: "The guide" });
    try {
      await page.goto(ui!.url);
      await page.getByLabel("Message").fill("Think: what is the answer?");
      await page.getByRole("button", { name: "Send" }).click();
      await expect.poll(async () => (await assistant.textContent()) ?? "", WAIT).toContain("It is 42.");

      // The reasoning is collapsed under "Thought" (it streamed under "Thinking…"); a click opens it.
      const reasoning = assistant.locator("details.reasoning");
      await expect.poll(() => reasoning.locator("summary").textContent(), WAIT).toBe("Thought");
      expect(await reasoning.getByText("Check the guide.").isVisible()).toBe(false);
      await reasoning.locator("summary").click();
      await expect.poll(() => reasoning.getByText("Check the guide.").isVisible(), WAIT).toBe(true);
      expect(await source.getAttribute("href")).toBe("https://example.com/guide");
      await page.screenshot({ path: join(tmpdir(), "june-assistant-ui-reasoning.png") });

      // A reload loads the thread from /sessions/:id/ui-messages: the source is kept with the reply (the reasoning
      // is journaled only with `journal: { reasoning: true }`).
      await expect.poll(() => new URL(page.url()).searchParams.get("thread"), WAIT).not.toBeNull();
      const session = await chat.openSession(new URL(page.url()).searchParams.get("thread")!);
      await expect.poll(async () => (await session.turns())[0]?.status, WAIT).toBe("completed");
      const reloaded = page.waitForResponse((response) => response.url().endsWith("/ui-messages"));
      await page.reload();
      expect((await reloaded).status()).toBe(200);
      await expect.poll(async () => (await assistant.textContent()) ?? "", WAIT).toContain("It is 42.");
      await expect.poll(() => source.getAttribute("href"), WAIT).toBe("https://example.com/guide");
      expect(pageErrors).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
