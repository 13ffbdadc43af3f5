import { join } from "node:path";
import { Agent, AskUser, Step } from "june";
import { agentResponder, createChat, fileStore } from "june/chat";
import { scriptedModel } from "june/testing";
import { describe, expect, it } from "vitest";
import { WAIT, screenshotPath, studioE2e } from "./__fixtures__/studio-page.js";

/**
 * June Studio answering a question (`<AskUser />`) and showing a blocked turn: the real Studio app built with
 * Vite, served by `serveStudio` over a real chat, in headless Chromium.
 */

const e2e = studioE2e("june-studio-ask-");

describe("June Studio: people in the loop", () => {
  it("answers a question in its text box; the model gets the answer and the reply streams", async () => {
    const model = scriptedModel([
      { text: [{ text: "", delay: 100 }], toolCalls: [{ toolName: "ask_user", input: { question: "Which environment should I deploy to?" }, toolCallId: "q1" }] },
      { text: ["Deploying ", "to ", "staging ", "now."], delay: 40 },
    ]);
    const chat = createChat({
      store: fileStore(join(e2e.tmp, "ask")),
      responder: agentResponder({
        render: ({ input }) => (
          <Agent model={model}>
            <AskUser />
            <Step id="reply" stream prompt={input} />
          </Agent>
        ),
        reply: (result) => String(result.steps.reply),
        stream: { step: "reply" },
      }),
    });
    const studio = await e2e.serve({ chat });
    const { page, pageErrors } = await e2e.newPage({ width: 1180, height: 860 });
    try {
      await page.goto(studio.url);
      await expect.poll(() => page.locator(".sidebar").isVisible(), WAIT).toBe(true);
      await page.getByLabel("Message", { exact: true }).fill("Ship the docs.");
      await page.keyboard.press("Enter");
      const question = page.getByRole("form", { name: "Question" });
      await question.waitFor(WAIT);
      expect(await question.textContent()).toContain("Which environment should I deploy to?");
      await question.getByPlaceholder("Your answer").fill("staging");
      await page.locator(".turn").last().screenshot({ path: await screenshotPath("studio-ask-question.png") });
      await question.getByRole("button", { name: "Answer" }).click();
      await expect.poll(() => page.locator(".turn .reply").last().textContent(), WAIT).toBe("Deploying to staging now.");
      expect(await page.getByRole("form", { name: "Question" }).count()).toBe(0);
      await page.locator(".turn").last().screenshot({ path: await screenshotPath("studio-ask-answered.png") });
      expect(JSON.stringify(model.doStreamCalls[1]!.prompt)).toContain("staging");
      expect(pageErrors).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it("shows a blocked turn's refusal in place of the reply", async () => {
    const chat = createChat({
      store: fileStore(join(e2e.tmp, "blocked")),
      model: scriptedModel([{ text: ["The ", "key ", "is ", "sk-123."], delay: 20 }]),
      instructions: "Help.",
      guardrails: { output: [{ name: "no-keys", check: ({ text }) => (/sk-\d+/.test(text) ? "The reply holds a key" : undefined) }] },
    });
    const studio = await e2e.serve({ chat });
    const page = await e2e.browser.newPage({ viewport: { width: 1180, height: 860 } });
    try {
      await page.goto(studio.url);
      await expect.poll(() => page.locator(".sidebar").isVisible(), WAIT).toBe(true);
      await page.getByLabel("Message", { exact: true }).fill("What is the key?");
      await page.keyboard.press("Enter");
      const refusal = page.locator(".turn__blocked").last();
      await refusal.waitFor(WAIT);
      expect(await refusal.textContent()).toBe('Blocked by guardrail "no-keys": The reply holds a key');
      expect(await page.locator(".turn").last().textContent()).not.toContain("sk-123");
      await page.locator(".turn").last().screenshot({ path: await screenshotPath("studio-guardrail-blocked.png") });
    } finally {
      await page.close();
    }
  });
});
