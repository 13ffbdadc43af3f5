import { join } from "node:path";
import type { ModelMessage } from "ai";
import { MockEmbeddingModelV3 } from "ai/test";
import { Agent, Memory, Step } from "june";
import { agentResponder, createChat, fileStore } from "june/chat";
import { bagOfWordsEmbedding, scriptedModel, type ScriptEntry } from "june/testing";
import { describe, expect, it } from "vitest";
import { WAIT, screenshotPath, studioE2e } from "./__fixtures__/studio-page.js";

/**
 * Memory in June Studio, end to end: an agent chat with `<Memory />` over a fileStore, its model storing what
 * alice says with `update_memory`. The memory panel shows the text and its version; a turn of alice's next
 * session shows, on its context, the earlier turn recall brought in; Forget empties the panel. The real Studio
 * app (built with Vite), the real `serveStudio` (no `authorize`: the panel's owner is the open session's),
 * Chromium.
 */

const TOKEN = "memory-studio-e2e-token";
const FACT = "Alice works in metric units.";

const e2e = studioE2e("june-studio-memory-e2e-");

describe("June Studio: an owner's memory, what a turn recalled, Forget", () => {
  it("shows the working memory with its version, a turn's recalled turn on its context, and Forget empties it", async () => {
    // Stores FACT on a turn about units (once per turn), then answers.
    const model = scriptedModel(({ options: call }): ScriptEntry => {
      const prompt = call.prompt as unknown as ModelMessage[];
      const last = JSON.stringify(prompt.at(-1));
      if (last.includes("tool-result") || prompt.at(-1)?.role === "tool") return "Noted.";
      if (last.includes("remember")) return { toolCalls: [{ toolName: "update_memory", input: { memory: FACT } }] };
      return "You use metric units.";
    });
    const embeddingModel = bagOfWordsEmbedding();
    const chat = createChat({
      store: fileStore(join(e2e.tmp, "store")),
      memory: { working: { scope: "owner" }, recall: { embeddingModel, topK: 2 } },
      responder: agentResponder({
        render: ({ input, messages }) => (
          <Agent model={model}>
            <Memory />
            <Step id="reply" stream prompt={[...messages, { role: "user", content: input }]} />
          </Agent>
        ),
        reply: (result) => String(result.steps.reply),
        stream: { step: "reply" },
      }),
    });
    const first = await chat.createSession({ owner: "alice" });
    const second = await chat.createSession({ owner: "alice" });
    const studio = await e2e.serve({ chat, token: TOKEN });
    const { page, pageErrors } = await e2e.newPage({ width: 1180, height: 900 });
    try {
      await page.goto(`${studio.url}#session=${first.id}`);
      await page.getByLabel("Message", { exact: true }).fill("Please remember: I work in metric units.");
      await page.keyboard.press("Enter");
      await expect.poll(() => page.locator('article[data-status="completed"] .reply').textContent().catch(() => null), WAIT).toBe("Noted.");

      // The panel: alice's (the session's owner), the text and its version.
      const panel = page.getByRole("region", { name: "Memory" });
      await expect.poll(() => panel.locator(".memory-panel__text").textContent().catch(() => null), WAIT).toBe(FACT);
      expect(await panel.getByLabel("Owner").inputValue()).toBe("alice");
      expect(await panel.locator(".memory-panel__text").getAttribute("data-version")).toBe("1");
      expect(await panel.locator(".memory-panel__meta").textContent()).toMatch(/^version 1/);
      await panel.locator(".memory-panel__versions summary").click();
      expect(await panel.locator(".memory-panel__versions li").count()).toBe(1);
      expect(await panel.locator(".memory-panel__versions li a").textContent()).toContain(first.id.slice(0, 8));

      // The first session's turn is indexed off the turn's path; then alice asks in her other session.
      await chat.memory("alice").indexed();
      await page.goto(`${studio.url}#session=${second.id}`);
      await page.getByLabel("Message", { exact: true }).fill("Which units do I work in?");
      await page.keyboard.press("Enter");
      const done = page.locator('article[data-status="completed"]');
      await expect.poll(() => done.locator(".reply").textContent().catch(() => null), WAIT).toBe("You use metric units.");
      const context = done.getByRole("group", { name: "Context" });
      await expect.poll(() => context.locator('[data-kind="recalled"]').count(), WAIT).toBe(1);
      const [firstTurn] = await first.turns();
      expect(await context.locator('[data-kind="recalled"]').getAttribute("data-session-id")).toBe(first.id);
      expect(await context.locator('[data-kind="recalled"]').getAttribute("data-turn-id")).toBe(firstTurn!.id);
      expect(await context.locator("summary").textContent()).toMatch(/working memory v1 · 1 recalled turn/);
      await context.locator("summary").click();
      expect(await context.locator('[data-kind="recalled"]').textContent()).toMatch(/score \d\.\d\d/);
      await expect.poll(() => panel.locator(".memory-panel__text").textContent().catch(() => null), WAIT).toBe(FACT);
      const shot = await screenshotPath("studio-memory.png");
      await page.screenshot({ path: shot });
      console.info(`Studio screenshot: ${shot}`);

      // Forget: the panel empties, and so does the store (the text, its versions, the recall index).
      page.once("dialog", (dialog) => void dialog.accept());
      await panel.getByRole("button", { name: "Forget" }).click();
      await expect.poll(() => panel.locator(".memory-panel__none").textContent().catch(() => null), WAIT).toBe("No working memory for alice.");
      expect(await panel.locator(".memory-panel__versions").count()).toBe(0);
      expect(await chat.memory("alice").get()).toBeUndefined();
      expect(await chat.memory("alice").versions()).toEqual([]);
      await page.screenshot({ path: await screenshotPath("studio-memory-forgotten.png") });
      expect(pageErrors).toEqual([]);
    } finally {
      await page.close();
    }
  }, 120_000);

  it("a turn whose recall failed says so on its context, the credential masked", async () => {
    const KEY = "sk-live-0123456789abcdefghijklmnop";
    const down = new MockEmbeddingModelV3({
      provider: "june-testing",
      modelId: "down",
      maxEmbeddingsPerCall: 64,
      supportsParallelCalls: true,
      doEmbed: async () => {
        throw new Error(`embeddings are down (key ${KEY})`);
      },
    });
    const told: string[] = [];
    const chat = createChat({
      store: fileStore(join(e2e.tmp, "store-down")),
      model: scriptedModel(() => "Still here."),
      memory: { recall: { embeddingModel: down, onError: (event) => told.push(event.phase) } },
    });
    const session = await chat.createSession({ owner: "alice" });
    const studio = await e2e.serve({ chat, token: TOKEN });
    const { page, pageErrors } = await e2e.newPage({ width: 1180, height: 900 });
    try {
      await page.goto(`${studio.url}#session=${session.id}`);
      await page.getByLabel("Message", { exact: true }).fill("Which units do I work in?");
      await page.keyboard.press("Enter");
      const done = page.locator('article[data-status="completed"]');
      await expect.poll(() => done.locator(".reply").textContent().catch(() => null), WAIT).toBe("Still here.");
      const context = done.getByRole("group", { name: "Context" });
      await expect.poll(() => context.locator("summary").textContent().catch(() => null), WAIT).toMatch(/recall failed/);
      await context.locator("summary").click();
      const line = await context.locator('[data-kind="recall-error"]').textContent();
      expect(line).toContain("Recall failed, so this turn went on without it: Error: embeddings are down");
      expect(line).not.toContain(KEY);
      expect(told[0]).toBe("search");
      expect(pageErrors).toEqual([]);
    } finally {
      await page.close();
    }
  }, 120_000);
});
