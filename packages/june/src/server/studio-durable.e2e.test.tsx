import { join } from "node:path";
import { jsonSchema, tool, type ModelMessage } from "ai";
import { Agent, Step, Tool } from "june";
import { agentResponder, createChat, fileStore } from "june/chat";
import { scriptedModel, type ScriptEntry } from "june/testing";
import { describe, expect, it } from "vitest";
import { WAIT, screenshotPath, studioE2e } from "./__fixtures__/studio-page.js";
import type { StudioServer } from "./serve-studio.js";

/**
 * Durable turns in June Studio, end to end: a turn waiting for approval suspends, the Studio server stops,
 * a new one starts over the same `fileStore`, the reloaded page shows the pending request, and Approve
 * resumes the turn there and streams the rest of its reply. The real Studio app (built with Vite), the
 * real `serveStudio`, Debian's headless Chromium.
 */

const TOKEN = "durable-studio-e2e-token";
const SECRET = "tok-5f1d2c-studio-durable";
const REPLY_DELTAS = ["Deployed ", "to ", "prod: ", "the ", "docs ", "are ", "live."];
const DENIED_DELTAS = ["Not ", "deployed: ", "you ", "said ", "no."];

const e2e = studioE2e("june-studio-durable-e2e-");

/**
 * A Studio over a durable agent chat kept in `dir`: the "work" step's model asks for `deploy` (needs approval),
 * then the streamed "reply" step streams the reply once the tool's result is in (a streamed step calls no tools). It answers from what it is sent, so a new
 * process resuming the turn gets the same answers. Every execution of the tool is pushed onto `deployed`.
 */
async function startStudio(dir: string, deployed: string[], port = 0): Promise<StudioServer> {
  const model = scriptedModel(({ options }): ScriptEntry => {
    const prompt = options.prompt as unknown as ModelMessage[];
    // The streamed "reply" step tells the user what the "work" step did.
    const last = prompt.at(-1);
    const asked = last?.role !== "user" ? "" : typeof last.content === "string" ? last.content : last.content.map((part) => ("text" in part ? part.text : "")).join("");
    if (asked.startsWith("Tell the user: ")) {
      return asked.endsWith("denied") ? { text: DENIED_DELTAS, delay: 80 } : { text: REPLY_DELTAS, delay: 120 };
    }
    const outcome = prompt
      .filter((message) => message.role === "tool")
      .flatMap((message) => (Array.isArray(message.content) ? message.content : []))
      .find((part) => part.type === "tool-result") as { output?: { type: string } } | undefined;
    if (!outcome) return { toolCalls: [{ toolName: "deploy", input: { env: "prod", token: SECRET }, toolCallId: "call-deploy" }] };
    return outcome.output?.type === "execution-denied" ? "denied" : "deployed";
  });
  const deploy = tool({
    description: "Deploy the docs",
    inputSchema: jsonSchema<{ env: string; token: string }>({
      type: "object",
      properties: { env: { type: "string" }, token: { type: "string" } },
      required: ["env", "token"],
    }),
    needsApproval: true,
    execute: async ({ env }) => {
      deployed.push(env);
      return `live on ${env}`;
    },
  });
  const chat = createChat({
    store: fileStore(dir),
    responder: agentResponder({
      id: "deployer",
      version: "1",
      // A turn that waits this long for a decision lets go of its process; deciding resumes it.
      durable: { suspendAfterMs: 300 },
      render: ({ input, messages }) => (
        <Agent model={model}>
          <Tool name="deploy" value={deploy} />
          <Step id="work" prompt={[...messages, { role: "user", content: input }]} />
          <Step id="reply" stream prompt={(ctx) => `Tell the user: ${String(ctx.steps.work)}`} />
        </Agent>
      ),
      reply: (result) => String(result.steps.reply),
      stream: { step: "reply" },
    }),
  });
  return e2e.serve({ chat, token: TOKEN, port });
}

async function stop(studio: StudioServer): Promise<void> {
  await studio.close();
}

describe("June Studio: durable turns", () => {
  it("shows a suspended turn's request after a server restart; Approve resumes it and streams the rest of the reply", async () => {
    const dir = join(e2e.tmp, "store");
    const deployed: string[] = [];
    const first = await startStudio(dir, deployed);
    const { page, pageErrors } = await e2e.newPage({ width: 1180, height: 860 });
    try {
      await page.goto(first.url);
      await page.getByLabel("Message", { exact: true }).fill("Ship the docs to prod.");
      await page.keyboard.press("Enter");

      // Nobody decides: the turn suspends and says so, its request still shown.
      const suspended = page.locator('article[data-status="suspended"]');
      await suspended.waitFor(WAIT);
      await expect.poll(() => suspended.locator(".turn__note").textContent(), WAIT).toContain("Suspended");
      // Its trace so far stays, with the request's Approve / Deny once, in this process too.
      await expect.poll(() => suspended.locator('[data-kind="approval"]').count(), WAIT).toBe(1);
      expect(await suspended.getByRole("button", { name: "Approve" }).count()).toBe(1);
      // Nothing in it reads running while it waits: its step says Suspended, the request Waiting.
      const badges = () => suspended.locator(".jt-badge").allTextContents();
      await expect.poll(badges, WAIT).toContain("Suspended");
      expect(await badges()).not.toContain("Running");
      expect(await suspended.locator('[data-kind="step"] .jt-badge').first().textContent()).toBe("Suspended");
      expect(await suspended.locator('[data-kind="step"] .jt-row__title').first().textContent()).toBe("work suspended");
      await page.locator("main.chat").screenshot({ path: await screenshotPath("studio-durable-suspended.png") });

      // The server stops; a new one starts over the same store (same port and token), and the page reloads.
      await stop(first);
      const second = await startStudio(dir, deployed, first.port);
      await page.reload();
      await suspended.waitFor(WAIT);
      const approval = suspended.locator('[data-kind="approval"]');
      await approval.waitFor(WAIT);
      expect(await approval.getAttribute("data-status")).toBe("pending");
      expect(await approval.locator(".jt-row__title").textContent()).toBe("Run deploy?");
      const tool = suspended.locator('[data-kind="tool"]');
      expect(await tool.locator(".jt-io").first().textContent()).toContain('"env":"prod"');
      // The tool's input is redacted by the server: the token never reaches the page.
      expect(await page.content()).not.toContain(SECRET);
      expect(deployed).toEqual([]);
      expect(await badges()).not.toContain("Running");
      await page.locator("main.chat").screenshot({ path: await screenshotPath("studio-durable-pending.png") });

      // Every value the live reply shows, so the test can tell a streamed reply from one that arrived whole.
      await page.evaluate(() => {
        const seen: string[] = [];
        (window as unknown as { replySnapshots: string[] }).replySnapshots = seen;
        new MutationObserver(() => {
          const text = document.querySelector('article[data-status="running"] .reply:not(.reply--waiting)')?.textContent;
          if (text && seen.at(-1) !== text) seen.push(text);
        }).observe(document.body, { subtree: true, childList: true, characterData: true });
      });
      await approval.getByRole("button", { name: "Approve" }).click();

      const done = page.locator('article[data-status="completed"]');
      await expect.poll(() => done.locator(".reply").textContent().catch(() => null), WAIT).toBe(REPLY_DELTAS.join(""));
      expect(deployed).toEqual(["prod"]);
      const snapshots = await page.evaluate(() => (window as unknown as { replySnapshots: string[] }).replySnapshots);
      expect(snapshots.length).toBeGreaterThan(1);
      expect(snapshots.at(-1)?.length).toBeLessThanOrEqual(REPLY_DELTAS.join("").length);
      // The resumed turn's trace is drawn as a live turn's: its tool ran, no request is left.
      expect(await done.locator('[data-kind="tool"]').count()).toBeGreaterThan(0);
      expect(await page.locator('[data-kind="approval"]').count()).toBe(0);
      expect(await page.locator('article[data-status="suspended"]').count()).toBe(0);

      const shot = await screenshotPath("studio-durable.png");
      await page.locator("main.chat").screenshot({ path: shot });
      console.info(`Studio screenshot: ${shot}`);
      expect(pageErrors).toEqual([]);
      await stop(second);
    } finally {
      await page.close();
    }
  }, 90_000);

  it("Deny on a suspended turn after a restart resumes it without running the tool", async () => {
    const dir = join(e2e.tmp, "store-deny");
    const deployed: string[] = [];
    const first = await startStudio(dir, deployed);
    const { page, pageErrors } = await e2e.newPage({ width: 1180, height: 860 });
    try {
      await page.goto(first.url);
      await page.getByLabel("Message", { exact: true }).fill("Ship the docs to prod.");
      await page.keyboard.press("Enter");
      const suspended = page.locator('article[data-status="suspended"]');
      await suspended.waitFor(WAIT);

      await stop(first);
      const second = await startStudio(dir, deployed, first.port);
      await page.reload();
      const approval = suspended.locator('[data-kind="approval"]');
      await approval.waitFor(WAIT);
      await approval.getByRole("button", { name: "Deny…" }).click();
      await approval.getByLabel("Reason for denying").fill("Not on a Friday");
      await approval.getByRole("button", { name: "Deny", exact: true }).click();

      const done = page.locator('article[data-status="completed"]');
      await expect.poll(() => done.locator(".reply").textContent().catch(() => null), WAIT).toBe(DENIED_DELTAS.join(""));
      expect(deployed).toEqual([]);
      expect(await page.locator('[data-kind="approval"]').count()).toBe(0);
      expect(pageErrors).toEqual([]);
      await stop(second);
    } finally {
      await page.close();
    }
  }, 90_000);

  it("Cancel on a suspended turn after a restart ends it: canceled, its request gone, the tool never run", async () => {
    const dir = join(e2e.tmp, "store-cancel");
    const deployed: string[] = [];
    const first = await startStudio(dir, deployed);
    const { page, pageErrors } = await e2e.newPage({ width: 1180, height: 860 });
    try {
      await page.goto(first.url);
      await page.getByLabel("Message", { exact: true }).fill("Ship the docs to prod.");
      await page.keyboard.press("Enter");
      const suspended = page.locator('article[data-status="suspended"]');
      await suspended.waitFor(WAIT);

      await stop(first);
      const second = await startStudio(dir, deployed, first.port);
      await page.reload();
      await suspended.locator('[data-kind="approval"]').waitFor(WAIT);
      const cancel = suspended.getByRole("button", { name: "Cancel turn" });
      expect(await cancel.count()).toBe(1);
      await page.locator("main.chat").screenshot({ path: await screenshotPath("studio-durable-cancel.png") });
      await cancel.click();

      const canceled = page.locator('article[data-status="canceled"]');
      await canceled.waitFor(WAIT);
      expect(await canceled.locator(".turn__note").textContent()).toContain("Canceled");
      expect(await page.locator('[data-kind="approval"]').count()).toBe(0);
      expect(await page.locator('article[data-status="suspended"]').count()).toBe(0);
      await page.locator("main.chat").screenshot({ path: await screenshotPath("studio-durable-canceled.png") });

      // Journaled: a reload (or another process) reads it canceled, and the session takes a new message.
      await page.reload();
      await canceled.waitFor(WAIT);
      expect(await page.getByRole("button", { name: "Cancel turn" }).count()).toBe(0);
      expect(deployed).toEqual([]);
      expect(pageErrors).toEqual([]);
      await stop(second);
    } finally {
      await page.close();
    }
  }, 90_000);
});
