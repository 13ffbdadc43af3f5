import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Agent, AskUser, Step } from "june";
import { agentResponder, createChat, fileStore } from "june/chat";
import { scriptedModel } from "june/testing";
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveStudio, type StudioServer } from "./serve-studio.js";

/**
 * June Studio answering a question (`<AskUser />`) and showing a blocked turn: the real Studio app built with
 * Vite, served by `serveStudio` over a real chat, in headless Chromium.
 */
const CHROMIUM = "/usr/bin/chromium";
const CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];
const WAIT = { timeout: 20_000 };
const STUDIO_SOURCE = fileURLToPath(new URL("../../../studio/", import.meta.url));
const ARTIFACTS = fileURLToPath(new URL("../../../../artifacts/", import.meta.url));

let tmp: string;
let staticDir: string;
let browser: Browser;
const servers: StudioServer[] = [];

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`The Studio e2e test needs Chromium at ${CHROMIUM}`);
  tmp = await mkdtemp(join(tmpdir(), "june-studio-ask-"));
  staticDir = join(tmp, "studio-dist");
  const { build } = await import("vite");
  await build({ configFile: join(STUDIO_SOURCE, "vite.config.ts"), root: STUDIO_SOURCE, logLevel: "warn", build: { outDir: staticDir, emptyOutDir: true } });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await Promise.all(servers.map((server) => server.close()));
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

async function shot(name: string): Promise<string> {
  try {
    await mkdir(ARTIFACTS, { recursive: true });
    return join(ARTIFACTS, name);
  } catch {
    return join(tmpdir(), name);
  }
}

describe("June Studio: people in the loop", () => {
  it("answers a question in its text box; the model gets the answer and the reply streams", async () => {
    const model = scriptedModel([
      { text: [{ text: "", delay: 100 }], toolCalls: [{ toolName: "ask_user", input: { question: "Which environment should I deploy to?" }, toolCallId: "q1" }] },
      { text: ["Deploying ", "to ", "staging ", "now."], delay: 40 },
    ]);
    const chat = createChat({
      store: fileStore(join(tmp, "ask")),
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
    const studio = await serveStudio({ chat, staticDir });
    servers.push(studio);
    const page = await browser.newPage({ viewport: { width: 1180, height: 860 } });
    const pageErrors: string[] = [];
    page.on("pageerror", (error) => pageErrors.push(error.message));
    try {
      await page.goto(studio.url);
      await expect.poll(() => page.locator(".sidebar").isVisible(), WAIT).toBe(true);
      await page.getByLabel("Message", { exact: true }).fill("Ship the docs.");
      await page.keyboard.press("Enter");
      const question = page.getByRole("form", { name: "Question" });
      await question.waitFor(WAIT);
      expect(await question.textContent()).toContain("Which environment should I deploy to?");
      await question.getByPlaceholder("Your answer").fill("staging");
      await page.locator(".turn").last().screenshot({ path: await shot("studio-ask-question.png") });
      await question.getByRole("button", { name: "Answer" }).click();
      await expect.poll(() => page.locator(".turn .reply").last().textContent(), WAIT).toBe("Deploying to staging now.");
      expect(await page.getByRole("form", { name: "Question" }).count()).toBe(0);
      await page.locator(".turn").last().screenshot({ path: await shot("studio-ask-answered.png") });
      expect(JSON.stringify(model.doStreamCalls[1]!.prompt)).toContain("staging");
      expect(pageErrors).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it("shows a blocked turn's refusal in place of the reply", async () => {
    const chat = createChat({
      store: fileStore(join(tmp, "blocked")),
      model: scriptedModel([{ text: ["The ", "key ", "is ", "sk-123."], delay: 20 }]),
      instructions: "Help.",
      guardrails: { output: [{ name: "no-keys", check: ({ text }) => (/sk-\d+/.test(text) ? "The reply holds a key" : undefined) }] },
    });
    const studio = await serveStudio({ chat, staticDir });
    servers.push(studio);
    const page = await browser.newPage({ viewport: { width: 1180, height: 860 } });
    try {
      await page.goto(studio.url);
      await expect.poll(() => page.locator(".sidebar").isVisible(), WAIT).toBe(true);
      await page.getByLabel("Message", { exact: true }).fill("What is the key?");
      await page.keyboard.press("Enter");
      const refusal = page.locator(".turn__blocked").last();
      await refusal.waitFor(WAIT);
      expect(await refusal.textContent()).toBe('Blocked by guardrail "no-keys": The reply holds a key');
      expect(await page.locator(".turn").last().textContent()).not.toContain("sk-123");
      await page.locator(".turn").last().screenshot({ path: await shot("studio-guardrail-blocked.png") });
    } finally {
      await page.close();
    }
  });
});
