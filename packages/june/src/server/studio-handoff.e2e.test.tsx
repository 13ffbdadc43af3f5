import { join } from "node:path";
import { Agent, Step } from "june";
import { agentResponder, createChat, fileStore } from "june/chat";
import { scriptedModel } from "june/testing";
import { describe, expect, it } from "vitest";
import { WAIT, screenshotPath, studioE2e } from "./__fixtures__/studio-page.js";

/**
 * A handoff in June Studio, end to end: the front agent's model hands off to the editor, who answers the same
 * message. The page shows the editor's reply, the front agent's step with its handoff row then the editor's step,
 * and the footer names the agents. The real Studio app (built with Vite), the real `serveStudio`, Chromium.
 */

const TOKEN = "handoff-studio-e2e-token";

const e2e = studioE2e("june-studio-handoff-e2e-");

describe("June Studio: a handoff answers in the same turn", () => {
  it("shows the editor's reply, each agent's step with the handoff between them, and front → editor", async () => {
    const front = scriptedModel([{ toolCalls: [{ toolName: "handoff", input: { agent: "editor", reason: "a headline to edit" } }] }], { modelId: "front-model" });
    const editor = scriptedModel([{ text: [{ text: "Send me " }, { text: "the headline." }] }], { modelId: "editor-model" });
    const chat = createChat({
      store: fileStore(join(e2e.tmp, "store")),
      responder: agentResponder({
        start: "front",
        agents: {
          front: { render: ({ input, handoff }) => <Agent model={front}>{handoff}<Step id="triage" prompt={input} /></Agent>, reply: (r) => String(r.steps.triage) },
          editor: {
            render: ({ input }) => <Agent model={editor}><Step id="edit" stream prompt={input} /></Agent>,
            reply: (r) => String(r.steps.edit),
            stream: { step: "edit" },
          },
        },
      }),
    });
    const studio = await e2e.serve({ chat, token: TOKEN });
    const { page, pageErrors } = await e2e.newPage({ width: 1180, height: 900 });
    try {
      await page.goto(studio.url);
      await page.getByLabel("Message", { exact: true }).fill("Fix my headline");
      await page.keyboard.press("Enter");

      const done = page.locator('article[data-status="completed"]');
      await expect.poll(() => done.locator(".reply").textContent().catch(() => null), WAIT).toBe("Send me the headline.");
      const steps = done.locator('[data-kind="step"]');
      await expect.poll(() => steps.count(), WAIT).toBe(2);
      expect(await steps.first().locator('[data-kind="tool"] .jt-row__title').first().textContent()).toMatch(/handoff/);
      expect(await done.locator(".turn__note").textContent()).toMatch(/^front → editor/);
      const shot = await screenshotPath("studio-handoff.png");
      await page.locator("main.chat").screenshot({ path: shot });
      console.info(`Studio screenshot: ${shot}`);
      expect(pageErrors).toEqual([]);
    } finally {
      await page.close();
    }
  }, 90_000);
});
