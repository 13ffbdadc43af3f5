import { existsSync } from "node:fs";
import { mkdir, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { jsonSchema, tool, type ModelMessage } from "ai";
import { Agent, Step, Tool } from "june";
import { agentResponder, createChat, fileStore } from "june/chat";
import { scriptedModel, type ScriptedModel } from "june/testing";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { createAnthropic } from "@ai-sdk/anthropic";
import { createFakeAnthropicServer } from "../testing/fake-anthropic-server.js";
import { WAIT, screenshotPath, studioE2e } from "./__fixtures__/studio-page.js";
import type { StudioServer } from "./serve-studio.js";

/**
 * June Studio end to end: the real Studio app (built from packages/studio with Vite), served by the real
 * `serveStudio` over a real `createChat` whose `agentResponder` runs a workflow on a scripted model, driven
 * in Debian's headless Chromium.
 */


const REPLY_DELTAS = ["Staging ", "is ", "deployed. ", "The ", "build ", "passed ", "its ", "checks, ", "and ", "the ", "new ", "version ", "is ", "live."];
const REPLY = REPLY_DELTAS.join("");
const DENIED_DELTAS = ["Nothing ", "was ", "deployed: ", "you ", "said ", "no."];
const DENIED_REPLY = DENIED_DELTAS.join("");

const e2e = studioE2e("june-studio-e2e-");

/** What one Studio's scripted model does on a turn: call `deploy`, note the outcome, then stream the reply. */
interface TurnScript {
  env: string;
  /** The `work` step's text once the tool ran or was denied. */
  outcome: string;
  replyDeltas: (string | { text: string; delay: number })[];
}

/**
 * A Studio over a real chat: an `agentResponder` whose workflow calls a tool that needs approval (in
 * a `work` step), then streams its reply (the `reply` step), on a scripted model with small delays, kept in
 * a `fileStore`. Each test gets its own, so one test's leftovers never reach another's script.
 */
async function startStudio(
  name: string,
  script: TurnScript | TurnScript[],
): Promise<{ studio: StudioServer; deployed: string[]; model: ScriptedModel }> {
  const deployed: string[] = [];
  // One turn after another: each calls the model three times (the tool call, its outcome, the reply).
  const model = scriptedModel(
    (Array.isArray(script) ? script : [script]).flatMap((turn) => [
      { text: [{ text: "Deploying now.", delay: 150 }], toolCalls: [{ toolName: "deploy", input: { env: turn.env } }] },
      { text: [{ text: turn.outcome, delay: 50 }] },
      { text: turn.replyDeltas, delay: 60 },
    ]),
  );
  const deploy = tool({
    description: "Deploy to an environment",
    inputSchema: jsonSchema<{ env: string }>({
      type: "object",
      properties: { env: { type: "string" } },
      required: ["env"],
    }),
    needsApproval: true,
    execute: async ({ env }) => {
      deployed.push(env);
      return `deployed to ${env}`;
    },
  });

  function Engineer({ messages, input }: { messages: ModelMessage[]; input: string }) {
    return (
      <Agent model={model} instructions="You ship code.">
        <Tool name="deploy" value={deploy} />
        <Step id="work" prompt={[...messages, { role: "user", content: input }]} />
        <Step id="reply" stream prompt={(ctx) => `Tell the user briefly: ${String(ctx.steps.work)}`} />
      </Agent>
    );
  }

  const chat = createChat({
    responder: agentResponder({
      id: "engineer",
      version: "1",
      render: ({ messages, input }) => <Engineer messages={messages} input={input} />,
      reply: (result) => String(result.steps.reply),
      stream: { step: "reply" },
    }),
    store: fileStore(join(e2e.tmp, name)),
  });
  const studio = await e2e.serve({ chat });
  return { studio, deployed, model };
}

async function screenshot(page: Page, selector: string, name: string): Promise<string> {
  const first = await screenshotPath(name);
  try {
    await page.locator(selector).screenshot({ path: first });
    return first;
  } catch (error) {
    if (first.startsWith(tmpdir())) throw error;
    const fallback = join(tmpdir(), name);
    await page.locator(selector).screenshot({ path: fallback });
    return fallback;
  }
}

/** A screenshot of the page from the top of `selector` down `height` pixels: for a menu that hangs below its element. */
async function screenshotBelow(page: Page, selector: string, height: number, name: string): Promise<string> {
  const box = await page.locator(selector).boundingBox();
  if (!box) throw new Error(`${selector} is not visible`);
  const clip = { x: box.x, y: box.y, width: box.width, height };
  const first = await screenshotPath(name);
  try {
    await page.screenshot({ path: first, clip });
    return first;
  } catch (error) {
    if (first.startsWith(tmpdir())) throw error;
    const fallback = join(tmpdir(), name);
    await page.screenshot({ path: fallback, clip });
    return fallback;
  }
}

describe("June Studio", () => {
  it("refuses requests without the token", async () => {
    const { studio } = await startStudio("token", { env: "staging", outcome: "-", replyDeltas: ["-"] });
    expect((await fetch(`${studio.origin}/api/sessions`)).status).toBe(401);
    expect((await fetch(`${studio.origin}/`)).status).toBe(401);
    expect((await fetch(`${studio.origin}/api/sessions`, { headers: { "x-june-token": "not-the-token-at-all" } })).status).toBe(401);
    const allowed = await fetch(`${studio.origin}/api/sessions`, { headers: { "x-june-token": studio.token } });
    expect(allowed.status).toBe(200);
  });

  it("streams a reply, shows its trace, approves a tool from its row and keeps the session on reload", async () => {
    const { studio, deployed } = await startStudio("approve", { env: "staging", outcome: "Deployed to staging.", replyDeltas: REPLY_DELTAS });
    const { page, pageErrors } = await e2e.newPage({ width: 1180, height: 860 });
    try {
      await page.goto(studio.url);
      await expect.poll(() => page.locator(".sidebar").isVisible(), WAIT).toBe(true);

      // Every value the live reply shows, so the test can tell a streamed reply from one that arrived whole.
      await page.evaluate(() => {
        const seen: string[] = [];
        (window as unknown as { replySnapshots: string[] }).replySnapshots = seen;
        new MutationObserver(() => {
          const text = document.querySelector('article[data-status="running"] .reply:not(.reply--waiting)')?.textContent;
          if (text && seen.at(-1) !== text) seen.push(text);
        }).observe(document.body, { subtree: true, childList: true, characterData: true });
      });

      await page.getByLabel("Message", { exact: true }).fill("Deploy the latest build to staging, please.");
      await page.keyboard.press("Enter");

      // The workflow pauses on the tool: its step, model call, tool call and approval rows are drawn.
      const approval = page.locator('[data-kind="approval"]');
      await approval.waitFor();
      await expect.poll(() => approval.locator(".jt-row__title").textContent(), WAIT).toBe("Run deploy?");
      expect(await approval.getAttribute("data-status")).toBe("pending");
      const toolRow = page.locator('[data-kind="tool"]');
      expect(await toolRow.locator(".jt-row__title").first().textContent()).toBe("deploy needs approval");
      expect(await toolRow.locator(".jt-io").first().textContent()).toContain('"env":"staging"');
      const workStep = page.locator('[data-kind="step"][data-row-id^="step:"]').first();
      expect(await workStep.locator(".jt-row__title").first().textContent()).toBe("Running work");
      expect(await workStep.locator(".jt-badge").first().textContent()).toBe("Running");
      expect(await page.locator('[data-kind="model"]').count()).toBeGreaterThan(0);
      expect(deployed).toEqual([]);

      // While the turn runs, the composer steers it and Cancel is offered.
      expect(await page.getByLabel("Steer the running turn").isVisible()).toBe(true);
      expect(await page.getByRole("button", { name: "Cancel the running turn" }).isEnabled()).toBe(true);

      // The sidebar lists the new session with its title.
      const session = page.locator(".session").first();
      await expect.poll(() => session.locator(".session__title").textContent(), WAIT).toBe("Deploy the latest build to staging, please.");

      await screenshot(page, "main.chat", "studio-approval.png");
      await approval.getByRole("button", { name: "Approve" }).click();

      // The run goes on: the tool runs, the reply streams in, and the turn completes.
      const turn = page.locator("article.turn").first();
      await expect.poll(() => turn.getAttribute("data-status"), WAIT).toBe("completed");
      expect(deployed).toEqual(["staging"]);
      expect(await turn.locator(".reply").textContent()).toBe(REPLY);

      const snapshots = await page.evaluate(() => (window as unknown as { replySnapshots: string[] }).replySnapshots);
      expect(snapshots.length).toBeGreaterThan(2);
      for (const snapshot of snapshots) expect(REPLY.startsWith(snapshot)).toBe(true);
      expect(snapshots[0]!.length).toBeLessThan(REPLY.length);

      // The finished trace: both steps done, the tool called with its output, no approval left.
      const titles = await page.locator(".jt-row__title").allTextContents();
      expect(titles).toContain("work finished");
      expect(titles).toContain("reply finished");
      expect(titles).toContain("deploy ran");
      expect(await page.locator('[data-kind="approval"]').count()).toBe(0);
      expect(await toolRow.locator(".jt-io").first().textContent()).toContain("deployed to staging");
      const statuses = await page.locator(".jt-row").evaluateAll((rows) => rows.map((row) => row.getAttribute("data-status")));
      expect(new Set(statuses)).toEqual(new Set(["done"]));
      // Every finished row says how long it took ("150 ms", "1.2 s").
      const durations = await page.locator(".jt-row__duration").allTextContents();
      expect(durations.length).toBe(statuses.length);
      for (const duration of durations) expect(duration).toMatch(/^\d+(\.\d)? (ms|s)$|^\d+ min/);
      // A model call shows what it wrote.
      expect(await page.locator('[data-kind="model"] .jt-io').allTextContents()).toContain(`Wrote${REPLY}`);
      expect(await page.getByLabel("Message", { exact: true }).isVisible()).toBe(true);
      await expect.poll(() => session.locator(".session__meta").textContent(), WAIT).toMatch(/^1 turn/);

      const saved = await screenshot(page, "main.chat", "studio-chat.png");
      expect(existsSync(saved)).toBe(true);
      console.info(`Studio screenshot: ${saved}`);

      // The session is in the URL: a reload opens it again with its past turn from the journal.
      const sessionId = await session.getAttribute("data-session-id");
      expect(new URL(page.url()).hash).toBe(`#session=${sessionId}`);

      // Thumbs-up on the reply: journaled as a feedback entry, shown pressed.
      const thumbsUp = turn.getByRole("button", { name: "Good reply" });
      expect(await thumbsUp.getAttribute("aria-pressed")).toBe("false");
      await thumbsUp.click();
      await expect.poll(() => thumbsUp.getAttribute("aria-pressed"), WAIT).toBe("true");
      const journal = await fileStore(join(e2e.tmp, "approve")).read(sessionId!);
      const turnId = await turn.getAttribute("data-turn-id");
      expect(journal.filter((entry) => entry.type === "feedback")).toEqual([expect.objectContaining({ type: "feedback", turnId, score: 1 })]);
      // A comment sends the feedback again, keeping the thumbs-up; the latest entry supersedes the first.
      await turn.getByRole("button", { name: "Add a comment" }).click();
      await turn.getByLabel("Feedback comment").fill("Clear and short.");
      await turn.getByRole("button", { name: "Save comment" }).click();
      await turn.locator(".feedback__comment").waitFor();
      const latest = (await fileStore(join(e2e.tmp, "approve")).read(sessionId!)).filter((entry) => entry.type === "feedback").at(-1);
      expect(latest).toMatchObject({ turnId, score: 1, comment: "Clear and short." });
      await screenshot(page, "main.chat", "studio-feedback.png");

      await page.reload();
      const restored = page.locator("article.turn").first();
      await restored.waitFor();
      expect(await restored.getAttribute("data-status")).toBe("completed");
      expect(await restored.locator(".bubble").first().textContent()).toBe("Deploy the latest build to staging, please.");
      expect(await restored.locator(".reply").textContent()).toBe(REPLY);
      expect(await page.locator(`.session[data-session-id="${sessionId}"]`).getAttribute("class")).toContain("session--selected");
      await expect.poll(() => page.locator(".chat__title").textContent(), WAIT).toBe("Deploy the latest build to staging, please.");
      // The feedback comes back with the journaled turn.
      expect(await restored.getByRole("button", { name: "Good reply" }).getAttribute("aria-pressed")).toBe("true");
      expect(await restored.getByRole("button", { name: "Bad reply" }).getAttribute("aria-pressed")).toBe("false");
      expect(await restored.locator(".feedback__comment").textContent()).toBe("Clear and short.");

      expect(pageErrors).toEqual([]);
    } finally {
      await page.close();
    }
  }, 90_000);

  it("edits a tool's input before approving: a bad edit is refused on the row, the edited one runs once, and the model sees it", async () => {
    const { studio, deployed, model } = await startStudio("edit", { env: "prod", outcome: "Deployed to staging.", replyDeltas: REPLY_DELTAS });
    const { page, pageErrors } = await e2e.newPage({ width: 1180, height: 860 });
    try {
      await page.goto(studio.url);
      await page.getByLabel("Message", { exact: true }).fill("Deploy the latest build, please.");
      await page.keyboard.press("Enter");
      const approval = page.locator('[data-kind="approval"]');
      await approval.waitFor();

      // Edit opens the input as JSON beside Approve and Deny.
      await approval.getByRole("button", { name: "Edit…" }).click();
      const editor = approval.getByLabel("Tool input (JSON)");
      expect(JSON.parse(await editor.inputValue())).toEqual({ env: "prod" });

      // An input the tool's schema refuses: said on the row, nothing runs, the request stays pending.
      await editor.fill('{ "env": 5 }');
      await approval.getByRole("button", { name: "Approve edited" }).click();
      await expect.poll(() => approval.locator(".jt-error").textContent(), WAIT).toMatch(/input\.env must be string.*still pending/);
      expect(await approval.getAttribute("data-status")).toBe("pending");
      expect(deployed).toEqual([]);

      await editor.fill('{ "env": "staging" }');
      const shot = join(fileURLToPath(new URL("../../test-results/", import.meta.url)), "studio-edit-approve.png");
      await mkdir(join(shot, ".."), { recursive: true });
      await page.locator("main.chat").screenshot({ path: shot });
      console.info(`Studio edit-and-approve screenshot: ${shot}`);
      await approval.getByRole("button", { name: "Approve edited" }).click();

      const turn = page.locator("article.turn").first();
      await expect.poll(() => turn.getAttribute("data-status"), WAIT).toBe("completed");
      // Once, with the edited input; the row says it was edited; the model's next call saw the call as it ran.
      expect(deployed).toEqual(["staging"]);
      const titles = await page.locator(".jt-row__title").allTextContents();
      expect(titles).toContain("deploy ran (input edited by you)");
      const toolInput = await page.locator('[data-kind="tool"] .jt-io').first().textContent();
      expect(toolInput).toContain('"env":"staging"');
      const next = model.doStreamCalls[1]!.prompt as unknown as ModelMessage[];
      const calls = next.flatMap((m) => (m.role === "assistant" && Array.isArray(m.content) ? m.content.filter((p) => p.type === "tool-call") : []));
      expect(calls.map((c) => (c as { input: unknown }).input)).toEqual([{ env: "staging" }]);
      await page.locator("main.chat").screenshot({ path: shot.replace(".png", "-done.png") });
      expect(pageErrors).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it("rejoins a running turn after a reload, denies from the row, and deletes a session", async () => {
    const { studio, deployed } = await startStudio("deny", { env: "production", outcome: "The deploy was denied.", replyDeltas: DENIED_DELTAS });
    const { page, pageErrors } = await e2e.newPage({ width: 1180, height: 860 });
    try {
      await page.goto(studio.url);
      // New session opens an empty chat; the session itself is made by its first message, so none is left empty.
      await page.getByRole("button", { name: "New session" }).click();
      expect(new URL(page.url()).hash).toBe("");
      await page.getByLabel("Message", { exact: true }).fill("Ship it to production.");
      await page.keyboard.press("Enter");
      await page.locator('[data-kind="approval"]').waitFor();
      await expect.poll(() => new URL(page.url()).hash, WAIT).toMatch(/^#session=/);
      const sessionId = decodeURIComponent(new URL(page.url()).hash.slice("#session=".length));

      // A reload mid-turn reads the session, sees its running turn and rejoins its events.
      await page.reload();
      const approval = page.locator('[data-kind="approval"]');
      await approval.waitFor();
      const turn = page.locator("article.turn").first();
      expect(await turn.getAttribute("data-status")).toBe("running");
      expect(await turn.locator(".bubble").first().textContent()).toBe("Ship it to production.");

      await approval.getByRole("button", { name: "Deny…" }).click();
      await approval.getByLabel("Reason for denying").fill("Not on a Friday");
      await approval.getByRole("button", { name: "Deny", exact: true }).click();

      await expect.poll(() => turn.getAttribute("data-status"), WAIT).toBe("completed");
      expect(await turn.locator(".reply").textContent()).toBe(DENIED_REPLY);
      expect(deployed).toEqual([]);
      const toolTitles = await page.locator('[data-kind="tool"] > .jt-row__line .jt-row__title').allTextContents();
      expect(toolTitles).toEqual(["deploy denied"]);
      expect(await page.locator('[data-kind="tool"] .jt-io').textContent()).toContain("Not on a Friday");
      // A denial is its own state: the tool's badge says Denied, never Done.
      const deniedBadge = page.locator('[data-kind="tool"] > .jt-row__line .jt-badge');
      expect(await deniedBadge.textContent()).toBe("Denied");
      expect(await deniedBadge.getAttribute("data-state")).toBe("denied");
      await screenshot(page, "main.chat", "studio-denied.png");

      // Deleting asks once more in place, then the session is gone from the sidebar and the server.
      const item = page.locator(`.session[data-session-id="${sessionId}"]`);
      await item.getByRole("button", { name: "Delete session" }).click();
      await item.getByRole("button", { name: "Confirm delete session" }).click();
      await item.waitFor({ state: "detached" });
      expect(new URL(page.url()).hash).toBe("");
      const listed = await fetch(`${studio.origin}/api/sessions`, { headers: { "x-june-token": studio.token } });
      const { sessions } = (await listed.json()) as { sessions: { id: string }[] };
      expect(sessions.map((session) => session.id)).not.toContain(sessionId);

      expect(pageErrors).toEqual([]);
    } finally {
      await page.close();
    }
  }, 90_000);

  it("titles that start alike show, in the sidebar, the end that tells them apart", async () => {
    const { studio } = await startStudio("alike", { env: "staging", outcome: "-", replyDeltas: ["-"] });
    const api = (path: string, init: RequestInit = {}) =>
      fetch(`${studio.origin}/api${path}`, { ...init, headers: { "x-june-token": studio.token, "content-type": "application/json" } });
    const titles = [
      "Deploy the docs to staging for the web team",
      "Deploy the docs to staging for the mobile team",
      "Deploy the docs to staging for the design team",
      "Summarize the release notes",
    ];
    for (const title of titles) {
      const { id } = (await (await api("/sessions", { method: "POST", body: "{}" })).json()) as { id: string };
      expect((await api(`/sessions/${encodeURIComponent(id)}/title`, { method: "PUT", body: JSON.stringify({ title }) })).status).toBe(200);
    }
    const page = await e2e.browser.newPage({ viewport: { width: 1180, height: 860 } });
    try {
      await page.goto(studio.url);
      await expect.poll(() => page.locator(".session").count(), WAIT).toBe(titles.length);
      const shot = await screenshot(page, ".sidebar", "studio-alike-titles.png");
      console.info(`Studio alike-titles screenshot: ${shot}`);
      // What a person sees of each title: the parts that are not hidden by the cut, as drawn.
      const seen = await page.locator(".session__title").evaluateAll((all) =>
        all.map((title) => {
          const parts = title.children.length > 0 ? Array.from(title.children) : [title];
          return parts.map((part) => ({ text: part.textContent ?? "", cut: part.scrollWidth > part.clientWidth + 0.5 }));
        }),
      );
      // Each deploy title's differing end is on the page whole (the sidebar is too narrow for any whole).
      const ends = seen.map((parts) => parts.filter((part) => !part.cut).map((part) => part.text).join(""));
      for (const team of ["web team", "mobile team", "design team"]) expect(ends.some((end) => end.endsWith(team)), team).toBe(true);
      expect(new Set(ends).size).toBe(titles.length);
      // Read whole, each still says its full title (and its tooltip does too).
      expect(await page.locator(".session__title").allTextContents()).toEqual([...titles].reverse());
    } finally {
      await page.close();
    }
  });

  it("renames a session in place from the sidebar; the title outlives a restart, and the page never asks per turn for branches", async () => {
    const script = { env: "staging", outcome: "Deployed to staging.", replyDeltas: ["Done."] };
    const { studio } = await startStudio("rename", script);
    const page = await e2e.browser.newPage({ viewport: { width: 1180, height: 860 } });
    const pageErrors: string[] = [];
    const branchRequests: string[] = [];
    page.on("pageerror", (error) => pageErrors.push(error.message));
    page.on("request", (request) => {
      if (request.url().endsWith("/branches")) branchRequests.push(request.url());
    });
    try {
      await page.goto(studio.url);
      await page.getByLabel("Message", { exact: true }).fill("Deploy the docs to staging");
      await page.keyboard.press("Enter");
      const approval = page.locator('[data-kind="approval"]');
      await approval.waitFor();
      await approval.getByRole("button", { name: "Approve" }).click();
      const turn = page.locator("article.turn").first();
      await expect.poll(() => turn.getAttribute("data-status"), WAIT).toBe("completed");
      const sessionId = decodeURIComponent(new URL(page.url()).hash.slice("#session=".length));
      const item = page.locator(`.session[data-session-id="${sessionId}"]`);
      await expect.poll(() => item.locator(".session__title").textContent(), WAIT).toBe("Deploy the docs to staging");

      // Escape leaves the title as it was.
      await item.hover();
      await item.getByRole("button", { name: "Rename session" }).click();
      const field = item.getByLabel("Session title");
      expect(await field.inputValue()).toBe("Deploy the docs to staging");
      await field.fill("Never mind");
      await page.keyboard.press("Escape");
      expect(await item.locator(".session__title").textContent()).toBe("Deploy the docs to staging");

      // Enter saves: the sidebar, the chat's header and the page title say the new name.
      await item.hover();
      await item.getByRole("button", { name: "Rename session" }).click();
      await item.getByLabel("Session title").fill("Docs deploy (staging)");
      await screenshot(page, ".sidebar", "studio-renaming.png");
      await page.keyboard.press("Enter");
      await expect.poll(() => item.locator(".session__title").textContent(), WAIT).toBe("Docs deploy (staging)");
      expect(await page.locator(".chat__title").textContent()).toBe("Docs deploy (staging)");
      await expect.poll(() => page.title(), WAIT).toBe("Docs deploy (staging) · June Studio");
      await item.hover();
      const shot = await screenshot(page, ".sidebar", "studio-renamed.png");
      console.info(`Studio renamed-session screenshot: ${shot}`);

      // A new server over the same store (a restart) lists the session under its new name.
      const { studio: restarted } = await startStudio("rename", script);
      await page.goto(`${restarted.url}#session=${encodeURIComponent(sessionId)}`);
      const again = page.locator(`.session[data-session-id="${sessionId}"]`);
      await expect.poll(() => again.locator(".session__title").textContent(), WAIT).toBe("Docs deploy (staging)");
      await expect.poll(() => page.locator("article.turn").count(), WAIT).toBe(1);

      expect(branchRequests).toEqual([]);
      expect(pageErrors).toEqual([]);
    } finally {
      await page.close();
    }
  }, 90_000);

  it("steers a running turn from the composer, and cancels another with its Cancel button", async () => {
    const steered = await startStudio("steer", { env: "staging", outcome: "Deployed to staging.", replyDeltas: REPLY_DELTAS });
    const { page, pageErrors } = await e2e.newPage({ width: 1180, height: 860 });
    try {
      await page.goto(steered.studio.url);
      await page.getByLabel("Message", { exact: true }).fill("Deploy to staging.");
      await page.keyboard.press("Enter");
      const approval = page.locator('[data-kind="approval"]');
      await approval.waitFor();

      // While the run waits, the box steers it: the note shows in the turn and reaches the model's next call.
      await page.getByLabel("Steer the running turn").fill("Also post in #deploys when done.");
      await page.keyboard.press("Enter");
      const turn = page.locator("article.turn").first();
      await expect.poll(() => turn.locator(".bubble--steer").textContent(), WAIT).toContain("Also post in #deploys when done.");
      await approval.getByRole("button", { name: "Approve" }).click();
      await expect.poll(() => turn.getAttribute("data-status"), WAIT).toBe("completed");
      expect(steered.deployed).toEqual(["staging"]);
      expect(JSON.stringify(steered.model.doStreamCalls[1]!.prompt)).toContain("Also post in #deploys when done.");

      // Cancel stops the next turn while it waits for approval: the tool never runs, the journal says canceled.
      const canceled = await startStudio("cancel", { env: "production", outcome: "-", replyDeltas: ["-"] });
      await page.goto(canceled.studio.url);
      await page.getByLabel("Message", { exact: true }).fill("Ship it to production.");
      await page.keyboard.press("Enter");
      await page.locator('[data-kind="approval"]').waitFor();
      await page.getByRole("button", { name: "Cancel the running turn" }).click();
      const stopped = page.locator("article.turn").first();
      await expect.poll(() => stopped.getAttribute("data-status"), WAIT).toBe("canceled");
      expect(await stopped.locator(".turn__note").textContent()).toBe("Canceled.");
      expect(await page.getByRole("button", { name: "Approve" }).count()).toBe(0);
      expect(canceled.deployed).toEqual([]);
      expect(canceled.model.callCount).toBe(1);
      const headers = { "x-june-token": canceled.studio.token };
      const { sessions } = (await (await fetch(`${canceled.studio.origin}/api/sessions`, { headers })).json()) as { sessions: { id: string }[] };
      const read = (await (await fetch(`${canceled.studio.origin}/api/sessions/${sessions[0]!.id}`, { headers })).json()) as { turns: { status: string }[] };
      expect(read.turns.map((t) => t.status)).toEqual(["canceled"]);
      expect(await page.getByLabel("Message", { exact: true }).isVisible()).toBe(true);

      expect(pageErrors).toEqual([]);
    } finally {
      await page.close();
    }
  }, 90_000);

  it("Cancel while the reply streams keeps what was streamed, marked as cut, also after a reload", async () => {
    // Five words, then one that never comes while the test runs: the turn streams until it is canceled.
    const words = [...Array.from({ length: 5 }, (_, i) => `word${i} `), { text: "never", delay: 600_000 }];
    const { studio } = await startStudio("cancel-mid-reply", { env: "staging", outcome: "Deployed to staging.", replyDeltas: words });
    const { page, pageErrors } = await e2e.newPage({ width: 1180, height: 860 });
    try {
      await page.goto(studio.url);
      await page.getByLabel("Message", { exact: true }).fill("Deploy to staging.");
      await page.keyboard.press("Enter");
      await page.locator('[data-kind="approval"]').getByRole("button", { name: "Approve" }).click();
      const turn = page.locator("article.turn").first();
      await expect.poll(() => turn.locator(".reply:not(.reply--waiting)").textContent().catch(() => ""), WAIT).toBe("word0 word1 word2 word3 word4 ");
      await page.getByRole("button", { name: "Cancel the running turn" }).click();

      await expect.poll(() => turn.getAttribute("data-status"), WAIT).toBe("canceled");
      const cut = turn.locator(".reply.reply--cut");
      const shown = (await cut.textContent()) ?? "";
      expect(shown).toBe("word0 word1 word2 word3 word4 ");
      expect(await turn.locator(".turn__note").textContent()).toBe("Canceled: the reply was cut here.");
      await screenshot(page, "main.chat", "studio-canceled-reply.png");

      // Journaled with its text: a reload shows the same cut reply.
      const headers = { "x-june-token": studio.token };
      const { sessions } = (await (await fetch(`${studio.origin}/api/sessions`, { headers })).json()) as { sessions: { id: string }[] };
      const read = (await (await fetch(`${studio.origin}/api/sessions/${sessions[0]!.id}`, { headers })).json()) as { turns: { status: string; text?: string }[] };
      expect(read.turns).toEqual([expect.objectContaining({ status: "canceled", text: shown })]);
      await page.reload();
      const again = page.locator('article[data-status="canceled"]');
      await again.waitFor(WAIT);
      expect(await again.locator(".reply.reply--cut").textContent()).toBe(shown);
      expect(await again.locator(".turn__note").textContent()).toBe("Canceled: the reply was cut here.");
      expect(pageErrors).toEqual([]);
    } finally {
      await page.close();
    }
  }, 90_000);

  it("regenerates the last reply, switches back with the branch switcher, and edits the message", async () => {
    const again = ["Staging ", "is ", "live ", "again: ", "a ", "fresh ", "deploy ", "went ", "out."];
    const edited = ["Production ", "is ", "deployed."];
    const { studio, deployed } = await startStudio("branches", [
      { env: "staging", outcome: "Deployed to staging.", replyDeltas: REPLY_DELTAS },
      { env: "staging", outcome: "Deployed to staging again.", replyDeltas: again },
      { env: "production", outcome: "Deployed to production.", replyDeltas: edited },
    ]);
    const { page, pageErrors } = await e2e.newPage({ width: 1180, height: 860 });
    try {
      await page.goto(studio.url);
      await page.getByLabel("Message", { exact: true }).fill("Deploy to staging.");
      await page.keyboard.press("Enter");
      const approval = page.locator('[data-kind="approval"]');
      await approval.waitFor(WAIT);
      await approval.getByRole("button", { name: "Approve" }).click();
      const turns = page.locator("article.turn");
      await expect.poll(() => turns.nth(0).getAttribute("data-status"), WAIT).toBe("completed");
      const firstId = await turns.nth(0).getAttribute("data-turn-id");
      // One reply, no alternatives yet: no switcher.
      expect(await page.locator(".branch-switch").count()).toBe(0);

      await turns.nth(0).getByRole("button", { name: "Regenerate" }).click();
      // The new turn takes the old one's place and streams like a send (its tool asks again).
      await approval.waitFor(WAIT);
      expect(await turns.count()).toBe(1);
      expect(await turns.nth(0).getAttribute("data-status")).toBe("running");
      await approval.getByRole("button", { name: "Approve" }).click();
      await expect.poll(() => turns.nth(0).locator(".reply").textContent(), WAIT).toBe(again.join(""));
      await expect.poll(() => turns.nth(0).getAttribute("data-status"), WAIT).toBe("completed");
      expect(await turns.count()).toBe(1);
      expect(await turns.nth(0).getAttribute("data-turn-id")).not.toBe(firstId);
      expect(deployed).toEqual(["staging", "staging"]);

      const switcher = turns.nth(0).locator(".branch-switch");
      await expect.poll(() => switcher.locator(".branch-switch__count").textContent(), WAIT).toBe("2 / 2");
      expect(await switcher.getByRole("button", { name: "Next alternative" }).isDisabled()).toBe(true);
      await page.mouse.move(0, 0);
      const shot = await screenshot(page, "main.chat", "studio-branches.png");
      console.info(`Studio branches screenshot: ${shot}`);

      await switcher.getByRole("button", { name: "Previous alternative" }).click();
      await expect.poll(() => turns.nth(0).getAttribute("data-turn-id"), WAIT).toBe(firstId);
      expect(await turns.nth(0).locator(".reply").textContent()).toBe(REPLY);
      await expect.poll(() => turns.nth(0).locator(".branch-switch__count").textContent(), WAIT).toBe("1 / 2");

      // The checkout is journaled: a reload comes back on the first reply.
      await page.reload();
      await expect.poll(() => page.locator("article.turn").first().getAttribute("data-turn-id"), WAIT).toBe(firstId);
      expect(await page.locator("article.turn .reply").first().textContent()).toBe(REPLY);

      // Edit the message inline: Enter sends it in the turn's place, a third alternative.
      await turns.nth(0).getByRole("button", { name: "Edit", exact: true }).click();
      const editor = turns.nth(0).getByLabel("Edit message");
      await editor.fill("Deploy to production instead.");
      await page.mouse.move(0, 0);
      await screenshot(page, "main.chat", "studio-edit.png");
      await editor.press("Enter");
      await approval.waitFor(WAIT);
      expect(await turns.nth(0).locator(".bubble").textContent()).toBe("Deploy to production instead.");
      await approval.getByRole("button", { name: "Approve" }).click();
      await expect.poll(() => turns.nth(0).getAttribute("data-status"), WAIT).toBe("completed");
      expect(await turns.nth(0).locator(".reply").textContent()).toBe(edited.join(""));
      await expect.poll(() => turns.nth(0).locator(".branch-switch__count").textContent(), WAIT).toBe("3 / 3");
      expect(deployed).toEqual(["staging", "staging", "production"]);
      expect(pageErrors).toEqual([]);
    } finally {
      await page.close();
    }
  }, 120_000);

  it("exports the session's eval cases as a JSONL download, all of them or the thumbs-down ones", async () => {
    const { studio } = await startStudio("export", [
      { env: "staging", outcome: "Deployed to staging.", replyDeltas: REPLY_DELTAS },
      { env: "production", outcome: "The deploy was denied.", replyDeltas: DENIED_DELTAS },
    ]);
    const { page, pageErrors } = await e2e.newPage({ width: 1180, height: 860 });
    try {
      await page.goto(studio.url);
      const inputs = ["Deploy to staging.", "Now ship it to production."];
      const turns = page.locator("article.turn");
      const approval = page.locator('[data-kind="approval"]');
      const composer = page.getByLabel("Message", { exact: true });

      // The first turn: approved. Its message makes the session.
      await composer.fill(inputs[0]);
      await page.keyboard.press("Enter");
      await approval.waitFor(WAIT);
      await expect.poll(() => new URL(page.url()).hash, WAIT).toMatch(/^#session=/);
      const sessionId = decodeURIComponent(new URL(page.url()).hash.slice("#session=".length));
      const exportButton = page.getByRole("button", { name: "Export eval cases" });
      // Nothing to export before a turn completes.
      await exportButton.waitFor(WAIT);
      expect(await exportButton.isDisabled()).toBe(true);
      // Hold back the session read that follows this turn's end, so the next message goes out before it
      // returns: that late read must not wipe out the turn running by then.
      const sessionPath = `/api/sessions/${sessionId}`;
      await page.route(`**${sessionPath}`, async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 1000));
        await route.continue();
      }, { times: 1 });
      const lateRead = page.waitForResponse((response) => new URL(response.url()).pathname === sessionPath, WAIT);
      await approval.getByRole("button", { name: "Approve" }).click();
      await expect.poll(() => turns.nth(0).getAttribute("data-status"), WAIT).toBe("completed");

      // The second turn, sent at once: its approval row stays after the late read lands, and it is denied.
      await composer.fill(inputs[1]);
      await page.keyboard.press("Enter");
      await approval.waitFor(WAIT);
      await (await lateRead).finished();
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
      expect(await approval.count()).toBe(1);
      expect(await turns.nth(1).getAttribute("data-status")).toBe("running");
      await approval.getByRole("button", { name: "Deny…" }).click();
      await approval.getByLabel("Reason for denying").fill("Not today");
      await approval.getByRole("button", { name: "Deny", exact: true }).click();
      await expect.poll(() => turns.nth(1).getAttribute("data-status"), WAIT).toBe("completed");
      const turnIds = await turns.evaluateAll((articles) => articles.map((article) => article.getAttribute("data-turn-id")));
      await turns.nth(0).getByRole("button", { name: "Good reply" }).click();
      await turns.nth(1).getByRole("button", { name: "Bad reply" }).click();
      await expect.poll(() => turns.nth(0).getByRole("button", { name: "Good reply" }).getAttribute("aria-pressed"), WAIT).toBe("true");
      await expect.poll(() => turns.nth(1).getByRole("button", { name: "Bad reply" }).getAttribute("aria-pressed"), WAIT).toBe("true");

      // The menu offers each filter with its count.
      await expect.poll(() => exportButton.isEnabled(), WAIT).toBe(true);
      await screenshot(page, "main.chat > .chat__header", "studio-export-header.png");
      await exportButton.click();
      const menu = page.getByRole("menu", { name: "Export eval cases" });
      await menu.waitFor(WAIT);
      const counts = await menu.locator(".export__item").evaluateAll((items) =>
        items.map((item) => [item.getAttribute("data-filter"), item.querySelector(".export__count")?.textContent]),
      );
      expect(counts).toEqual([
        ["all", "2"],
        ["up", "1"],
        ["down", "1"],
      ]);
      const shot = await screenshotBelow(page, "main.chat", 210, "studio-export-menu.png");
      console.info(`Studio export menu screenshot: ${shot}`);

      /** Picks a menu item and reads the file the browser downloads. */
      async function download(item: RegExp): Promise<{ name: string; lines: Record<string, unknown>[] }> {
        if (!(await menu.isVisible())) await exportButton.click();
        const [file] = await Promise.all([page.waitForEvent("download", WAIT), menu.getByRole("menuitem", { name: item }).click()]);
        const path = await file.path();
        const text = await readFile(path, "utf8");
        expect(text.endsWith("\n")).toBe(true);
        return { name: file.suggestedFilename(), lines: text.trimEnd().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>) };
      }

      const all = await download(/All completed turns/);
      expect(all.name).toBe(`${sessionId}-cases.jsonl`);
      expect(all.lines.map((line) => [line.input, line.reply])).toEqual([
        [inputs[0], REPLY],
        [inputs[1], DENIED_REPLY],
      ]);
      expect(all.lines.map((line) => line.metadata)).toEqual(
        turnIds.map((turnId) => expect.objectContaining({ sessionId, turnId, responder: { kind: "agent", id: "engineer", version: "1" } })),
      );
      expect(all.lines.map((line) => (line.feedback as { score: number }).score)).toEqual([1, -1]);
      expect(await menu.count()).toBe(0);

      const down = await download(/Thumbs-down only/);
      expect(down.name).toBe(`${sessionId}-cases.jsonl`);
      expect(down.lines.map((line) => [line.id, line.input, line.reply])).toEqual([[`${sessionId}/${turnIds[1]}`, inputs[1], DENIED_REPLY]]);
      // The second turn was answered after the first: its case carries that exchange as context.
      expect(JSON.stringify(down.lines[0]!.messages)).toContain(inputs[0]);

      // Escape closes the menu and gives focus back to its button.
      await exportButton.click();
      await menu.waitFor(WAIT);
      await page.keyboard.press("Escape");
      await menu.waitFor({ state: "detached", ...WAIT });
      expect(await exportButton.evaluate((button) => button === document.activeElement)).toBe(true);

      expect(pageErrors).toEqual([]);
    } finally {
      await page.close();
    }
  }, 120_000);

  it("a wrong token gets a page that says what to do, not a JSON error", async () => {
    const { studio } = await startStudio("wrong-token", { env: "staging", outcome: "-", replyDeltas: ["-"] });
    const page = await e2e.browser.newPage({ viewport: { width: 900, height: 600 } });
    try {
      const response = await page.goto(`${studio.origin}/?token=not-the-token-at-all`);
      expect(response?.status()).toBe(401);
      const main = page.locator('main[data-june-studio="token-page"]');
      expect(await main.locator("h1").textContent()).toBe("Open June Studio from the link in your terminal");
      expect(await main.textContent()).toContain("This link's token is not this Studio's.");
      expect(await main.textContent()).toContain("june studio");
      expect(await page.content()).not.toContain(studio.token);
      await screenshot(page, "main", "studio-wrong-token.png");
      // No token at all says so; the API still answers scripts with JSON.
      await page.goto(`${studio.origin}/`);
      expect(await main.textContent()).toContain("This link has no token.");
      const api = await fetch(`${studio.origin}/api/sessions`);
      expect(api.headers.get("content-type")).toContain("application/json");
    } finally {
      await page.close();
    }
  }, 60_000);

  it("at 420 px the sidebar is a drawer; with the server down the draft stays, and Studio reconnects by itself", async () => {
    const name = "narrow";
    const first = await startStudio(name, { env: "staging", outcome: "Deployed to staging.", replyDeltas: REPLY_DELTAS });
    const { page, pageErrors } = await e2e.newPage({ width: 420, height: 820 });
    try {
      await page.goto(first.studio.url);
      const composer = page.getByLabel("Message", { exact: true });
      await composer.waitFor(WAIT);
      // The chat has the whole width; the sidebar waits behind the header's button.
      expect(await page.locator(".sidebar").isVisible()).toBe(false);
      const chatBox = await page.locator("main.chat").boundingBox();
      expect(chatBox?.width).toBe(420);
      await composer.fill("Deploy the docs to staging");
      await page.keyboard.press("Enter");
      await page.locator('[data-kind="approval"]').waitFor(WAIT);
      await screenshot(page, "body", "studio-narrow.png");
      await page.locator('[data-kind="approval"]').getByRole("button", { name: "Approve" }).click();
      await expect.poll(() => page.locator("article.turn").first().getAttribute("data-status"), WAIT).toBe("completed");

      await page.getByRole("button", { name: "Show sessions" }).click();
      await expect.poll(() => page.locator(".sidebar").isVisible(), WAIT).toBe(true);
      // Slid all the way in (its transform ends at none) before the picture.
      await expect.poll(() => page.locator(".sidebar").evaluate((element) => getComputedStyle(element).transform), WAIT).toBe("none");
      await screenshot(page, "body", "studio-narrow-sidebar.png");
      await page.getByRole("button", { name: "Hide sessions" }).click();
      await expect.poll(() => page.locator(".sidebar").isVisible(), WAIT).toBe(false);

      // The server goes away: the message typed stays in the box, one line says Studio is unreachable.
      const { port, token } = first.studio;
      await first.studio.close();
      await composer.fill("And now the blog, please");
      await page.keyboard.press("Enter");
      const banner = page.locator(".banner--offline");
      await banner.waitFor(WAIT);
      expect(await banner.textContent()).toBe("Can't reach the Studio server. Is `june studio` still running? Retrying…");
      expect(await composer.inputValue()).toBe("And now the blog, please");
      expect(await page.locator(".composer__error").textContent()).toContain("Your message is kept here");
      expect(await page.locator(".banner").allTextContents()).not.toContain("Failed to fetch");
      await screenshot(page, "body", "studio-offline.png");

      // It comes back on the same port: Studio notices by itself, the banner goes, and the draft can be sent.
      const chat = createChat({
        responder: agentResponder({
          id: "echo",
          version: "1",
          render: () => <Agent model={scriptedModel(["Back and deployed."])}><Step id="reply" stream prompt="x" /></Agent>,
          reply: (result) => String(result.steps.reply),
          stream: { step: "reply" },
        }),
        store: fileStore(join(e2e.tmp, name)),
      });
      await e2e.serve({ chat, port, token });
      await banner.waitFor({ state: "detached", timeout: 20_000 });
      expect(await composer.inputValue()).toBe("And now the blog, please");
      await page.keyboard.press("Enter");
      await expect.poll(() => page.locator("article.turn").nth(1).getAttribute("data-status"), WAIT).toBe("completed");
      expect(await page.locator("article.turn").nth(1).locator(".reply").textContent()).toBe("Back and deployed.");
      expect(pageErrors).toEqual([]);
    } finally {
      await page.close();
    }
  }, 120_000);

  it("a model chat's failure reads as a sentence, with the provider's error folded under Details", async () => {
    const fake = await createFakeAnthropicServer({ script: ["never sent"], apiKey: "the-right-key" });
    try {
      const chat = createChat({
        model: createAnthropic({ baseURL: fake.url, apiKey: "a-wrong-key" })("claude-sonnet-4-5"),
        store: fileStore(join(e2e.tmp, "model-error")),
      });
      // Ended turns are forgotten at once, so a reload asks for events the server no longer has.
      const studio = await e2e.serve({ chat, handler: { endedTurnTtlMs: 1 } });
      const { page, pageErrors } = await e2e.newPage({ width: 1000, height: 700 });
      const consoleErrors: string[] = [];
      page.on("console", (entry) => {
        if (entry.type() === "error") consoleErrors.push(entry.text());
      });
      try {
        await page.goto(studio.url);
        await page.getByLabel("Message", { exact: true }).fill("Hello there");
        await page.keyboard.press("Enter");
        const turn = page.locator("article.turn").first();
        await expect.poll(() => turn.getAttribute("data-status"), WAIT).toBe("failed");
        await expect.poll(() => turn.locator(".turn__error-text").textContent(), WAIT).toBe(
          "The model provider refused the API key. Check the key in the environment `june studio` runs in.",
        );
        const detail = turn.locator("details.turn__error-detail");
        expect(await detail.evaluate((element) => (element as HTMLDetailsElement).open)).toBe(false);
        expect(await detail.locator("code").textContent()).toContain("invalid x-api-key");
        expect(await page.content()).not.toContain("a-wrong-key");
        await screenshot(page, "main.chat", "studio-model-error.png");
        // A reload in normal use logs nothing: a turn whose events are gone is asked for without a 404.
        await new Promise((resolve) => setTimeout(resolve, 50));
        await page.reload();
        await expect.poll(() => page.locator("article.turn").first().getAttribute("data-status"), WAIT).toBe("failed");
        await page.waitForLoadState("networkidle");
        expect(consoleErrors).toEqual([]);
        expect(pageErrors).toEqual([]);
      } finally {
        await page.close();
      }
    } finally {
      await fake.close();
    }
  }, 60_000);

  it("a model chat shows its call as a row: the retry as it happens, then tokens, and its prompt opens to each message", async () => {
    // The provider is overloaded once (a 529 the AI SDK retries after its backoff), then answers.
    const fake = await createFakeAnthropicServer({
      script: [{ error: { status: 529, message: "Overloaded" } }, { text: ["A lockfile ", "pins the exact ", "versions installed."], delay: 40 }],
      apiKey: "the-right-key",
    });
    try {
      const chat = createChat({
        model: createAnthropic({ baseURL: fake.url, apiKey: "the-right-key" })("claude-sonnet-4-5"),
        instructions: "You explain software briefly and plainly.",
        store: fileStore(join(e2e.tmp, "model-retry")),
      });
      const studio = await e2e.serve({ chat });
      const { page, pageErrors } = await e2e.newPage({ width: 1000, height: 760 });
      try {
        await page.goto(studio.url);
        await page.getByLabel("Message", { exact: true }).fill("What does a lockfile do? My token is sk-proj-ABCDEFGHIJ0123456789xyz");
        await page.keyboard.press("Enter");
        const turn = page.locator("article.turn").first();
        const row = turn.locator('[data-kind="model"]');
        // Live, while the turn runs: the failed request in words, and the retry under way.
        const attempt = row.locator('.jt-attempt[data-attempt="1"]');
        await attempt.waitFor(WAIT);
        expect(await turn.getAttribute("data-status")).toBe("running");
        expect(await attempt.locator(".jt-attempt__words").textContent()).toMatch(/^Attempt 1 failed after .+: The model provider had a problem\. Retrying…$/);
        expect(await attempt.locator("details").evaluate((element) => (element as HTMLDetailsElement).open)).toBe(false);
        expect(await attempt.locator("code").textContent()).toContain("Overloaded");
        await screenshot(page, "main.chat", "studio-model-retry.png");

        await expect.poll(() => turn.getAttribute("data-status"), WAIT).toBe("completed");
        expect(await turn.locator(".reply").textContent()).toBe("A lockfile pins the exact versions installed.");
        expect(fake.requests).toHaveLength(2);
        // The row once done: the model, its tokens, how long it took; the failed attempt stays listed.
        await expect.poll(() => row.locator(".jt-row__title").textContent(), WAIT).toBe("claude-sonnet-4-5 answered");
        expect(await row.getAttribute("data-status")).toBe("done");
        expect(await row.locator(".jt-row__meta").textContent()).toMatch(/^\d[\d,]* tokens$/);
        expect(await row.locator(".jt-row__duration").textContent()).toMatch(/\d+(\.\d)? (ms|s)$/);
        expect(await row.locator(".jt-attempt").count()).toBe(1);
        expect(await turn.locator(".turn__trace-summary").textContent()).toContain("1 model call");

        // The prompt: one line, opening to each message with its role, redacted.
        const prompt = row.locator('[data-messages="prompt"]');
        expect(await prompt.locator("details").evaluate((element) => (element as HTMLDetailsElement).open)).toBe(false);
        await prompt.locator("summary").click();
        await expect.poll(() => prompt.locator("details").evaluate((element) => (element as HTMLDetailsElement).open), WAIT).toBe(true);
        expect(await prompt.locator(".jt-message__role").allTextContents()).toEqual(["System", "User"]);
        const texts = await prompt.locator(".jt-message__text").allTextContents();
        expect(texts[0]).toBe("You explain software briefly and plainly.");
        expect(texts[1]).toContain("What does a lockfile do?");
        expect(texts[1]).toContain("[redacted]");
        expect(texts[1]).not.toContain("sk-proj-ABCDEFGHIJ0123456789xyz");
        const response = row.locator('[data-messages="response"]');
        await response.locator("summary").click();
        await expect.poll(() => response.locator(".jt-message__text").textContent(), WAIT).toBe("A lockfile pins the exact versions installed.");
        await screenshot(page, "main.chat", "studio-model-prompt.png");
        expect(pageErrors).toEqual([]);
      } finally {
        await page.close();
      }
    } finally {
      await fake.close();
    }
  }, 90_000);
});
