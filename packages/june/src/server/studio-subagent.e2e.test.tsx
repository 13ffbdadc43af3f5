import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { fileStore } from "june/chat";
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { subAgentChat } from "../chat/__fixtures__/subagent-chat.js";
import { serveStudio, type StudioServer } from "./serve-studio.js";

/**
 * A workflow as a tool in June Studio, end to end: the front agent calls a two-step sub-agent (`<Tool agent>`)
 * whose tool needs approval. The page shows the sub-agent's steps nested under the tool's row, the request under
 * the sub-agent's tool, once; Approve runs the tool once and the reply uses the sub-agent's result. The real
 * Studio app (built with Vite), the real `serveStudio`, Debian's headless Chromium.
 */

const CHROMIUM = "/usr/bin/chromium";
const CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];
/** How long to wait for the page to catch up: generous, since the machine may be busy; never a timing assertion. */
const WAIT = { timeout: 20_000 };
const STUDIO_SOURCE = fileURLToPath(new URL("../../../studio/", import.meta.url));
const ARTIFACTS = fileURLToPath(new URL("../../../../artifacts/", import.meta.url));
const TOKEN = "subagent-studio-e2e-token";

let tmp: string;
let staticDir: string;
let browser: Browser;
let studio: StudioServer | undefined;

async function screenshotPath(name: string): Promise<string> {
  try {
    await mkdir(ARTIFACTS, { recursive: true });
    return join(ARTIFACTS, name);
  } catch {
    return join(tmpdir(), name);
  }
}

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`This e2e test needs Chromium at ${CHROMIUM}: install it with \`apt-get install -y chromium\``);
  tmp = await mkdtemp(join(tmpdir(), "june-studio-subagent-e2e-"));
  staticDir = join(tmp, "studio-dist");
  const { build } = await import("vite");
  await build({ configFile: join(STUDIO_SOURCE, "vite.config.ts"), root: STUDIO_SOURCE, logLevel: "warn", build: { outDir: staticDir, emptyOutDir: true } });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await studio?.close();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

describe("June Studio: a sub-agent called as a tool", () => {
  it("nests the sub-agent's rows under the tool's row, asks once, and answers with its result", async () => {
    const log = join(tmp, "calls.log");
    const chat = subAgentChat({ store: fileStore(join(tmp, "store")), log });
    studio = await serveStudio({ chat, staticDir, token: TOKEN });
    const page = await browser.newPage({ viewport: { width: 1180, height: 900 } });
    const pageErrors: string[] = [];
    page.on("pageerror", (error) => pageErrors.push(error.message));
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
