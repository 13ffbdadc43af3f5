import { join } from "node:path";
import { fileStore } from "june/chat";
import { describe, expect, it } from "vitest";
import { subAgentChat } from "../chat/__fixtures__/subagent-chat.js";
import { WAIT, screenshotPath, studioE2e } from "./__fixtures__/studio-page.js";

/**
 * A workflow as a tool in June Studio, end to end: the front agent calls a two-step sub-agent (`<Tool agent>`)
 * whose tool needs approval. The page shows the sub-agent's steps nested under the tool's row, the request under
 * the sub-agent's tool, once; Approve runs the tool once and the reply uses the sub-agent's result. The real
 * Studio app (built with Vite), the real `serveStudio`, Debian's headless Chromium.
 */

const TOKEN = "subagent-studio-e2e-token";

const e2e = studioE2e("june-studio-subagent-e2e-");

describe("June Studio: a sub-agent called as a tool", () => {
  it("nests the sub-agent's rows under the tool's row, asks once, and answers with its result", async () => {
    const log = join(e2e.tmp, "calls.log");
    const chat = subAgentChat({ store: fileStore(join(e2e.tmp, "store")), log });
    const studio = await e2e.serve({ chat, token: TOKEN });
    const { page, pageErrors } = await e2e.newPage({ width: 1180, height: 900 });
    try {
      await page.goto(studio.url);
      await page.getByLabel("Message", { exact: true }).fill("Why is the sky blue?");
      await page.keyboard.press("Enter");

      const turn = page.locator("article").last();
      const research = turn.locator('[data-kind="tool"]').filter({ has: page.locator(".jt-row__title", { hasText: "research" }) }).first();
      await research.waitFor(WAIT);
      // The sub-agent's steps are rows inside the research tool's row; its request sits under its own tool, once.
      await expect.poll(() => research.locator('[data-kind="step"]').count(), WAIT).toBe(2);
      await expect.poll(() => research.locator('[data-kind="approval"]').count(), WAIT).toBe(1);
      expect(await page.locator('[data-kind="approval"]').count()).toBe(1);
      expect(await research.locator('[data-kind="approval"] .jt-row__title').textContent()).toBe("Run fetchPage?");
      await page.locator("main.chat").screenshot({ path: await screenshotPath("studio-subagent-pending.png") });

      await research.locator('[data-kind="approval"]').getByRole("button", { name: "Approve" }).click();
      const done = page.locator('article[data-status="completed"]');
      await expect.poll(() => done.locator(".reply").textContent().catch(() => null), WAIT).toBe("It is Rayleigh scattering.");
      expect(await done.locator('[data-kind="tool"] [data-kind="step"]').count()).toBe(2);
      expect(await page.locator('[data-kind="approval"]').count()).toBe(0);
      const { readFileSync } = await import("node:fs");
      expect(readFileSync(log, "utf8").split("\n").filter((line) => line.startsWith("fetch"))).toHaveLength(1);
      const shot = await screenshotPath("studio-subagent.png");
      await page.locator("main.chat").screenshot({ path: shot });
      console.info(`Studio screenshot: ${shot}`);
      expect(pageErrors).toEqual([]);
    } finally {
      await page.close();
    }
  }, 90_000);
});
