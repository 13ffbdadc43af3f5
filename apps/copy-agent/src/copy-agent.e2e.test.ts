import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseJSONL } from "june/learning";
import { toNodeListener } from "june/server";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCopyAgent, type CopyAgent } from "./server/copy-agent.js";
import { serveCopyAgent, type RunningCopyAgent } from "./server/serve.js";
import { staticFiles } from "./server/static-files.js";

/**
 * The Copy Agent end to end: its UI built with Vite, served with its API (June's `createChatHandler` per
 * agent over one file store, offline models) on 127.0.0.1, driven in Debian's headless Chromium.
 */
const CHROMIUM = "/usr/bin/chromium";
const CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];
/** How long to wait for the page to catch up: generous, since the machine may be busy; never a timing assertion. */
const WAIT = { timeout: 20_000 };
const APP = fileURLToPath(new URL("../", import.meta.url));
const ARTIFACTS = fileURLToPath(new URL("../../../artifacts/", import.meta.url));

let tmp: string;
let app: CopyAgent;
let running: RunningCopyAgent;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), "copy-agent-e2e-"));
  const outDir = join(tmp, "web");
  const { build } = await import("vite");
  await build({ configFile: join(APP, "vite.config.ts"), logLevel: "warn", build: { outDir, emptyOutDir: true } });
  app = createCopyAgent({ dataDir: join(tmp, "data") });
  running = await serveCopyAgent({ api: app.handler, ui: toNodeListener(staticFiles(outDir)) });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
});

afterAll(async () => {
  await browser?.close();
  await running?.close();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

/** Sends a message with the active agent and waits for its turn to end; returns the turn's element. */
async function send(text: string, { approval }: { approval?: "approve" | { deny: string } } = {}) {
  const before = await page.locator("article.turn").count();
  const publishedBefore = (await app.publications.list()).length;
  await page.getByLabel("Message").fill(text);
  await page.getByRole("button", { name: "Send" }).click();
  const turn = page.locator("article.turn").nth(before);
  if (approval) {
    const row = turn.locator('[data-kind="approval"]');
    await row.getByRole("button", { name: "Approve" }).waitFor(WAIT);
    // Waiting: the tool has not run.
    expect(await app.publications.list()).toHaveLength(publishedBefore);
    await expect.poll(() => turn.locator(".muted").first().textContent(), WAIT).toBe("Waiting for your approval…");
    if (approval === "approve") {
      await row.getByRole("button", { name: "Approve" }).click();
    } else {
      await row.getByRole("button", { name: "Deny…" }).click();
      await row.getByLabel("Reason for denying").fill(approval.deny);
      await row.getByRole("button", { name: "Deny", exact: true }).click();
    }
  }
  await expect.poll(() => turn.getAttribute("data-status"), WAIT).toBe("completed");
  return turn;
}

async function switchTo(name: string) {
  await page.getByRole("button", { name, exact: true }).click();
  await expect.poll(() => page.getByRole("button", { name, exact: true }).getAttribute("aria-pressed"), WAIT).toBe("true");
}

describe("the Copy Agent in Chromium", () => {
  it("switches agents, approves a publish, and shows which agent wrote each reply", async () => {
    await page.goto(running.url);
    await page.getByRole("button", { name: "Headline writer", exact: true }).waitFor(WAIT);
    expect(await page.getByRole("button", { name: "Headline writer", exact: true }).getAttribute("aria-pressed")).toBe("true");

    const headlines = await send("Headlines for our new espresso machine");
    expect(await headlines.locator(".reply__text").textContent()).toContain("1. New Espresso Machine, Made Simple");
    // The trace drew both steps with june-design-system's rows.
    expect(await headlines.locator('.jt-row[data-kind="step"]').count()).toBe(2);

    await switchTo("Editor");
    const edited = await send("Edit: we are really very excited to launch the machine");
    expect(await edited.locator(".reply__text").textContent()).toMatch(/^We are excited to launch the machine\./);

    await switchTo("Translator");
    const translated = await send("Translate that into French");
    expect(await translated.locator(".reply__text").textContent()).toContain("(French, offline glossary)");

    const published = await send("Publish it", { approval: "approve" });
    expect(await published.locator(".reply__text").textContent()).toMatch(/^Published ".+" at \/published\/[a-z0-9-]+\.$/);
    // The approved call ran once, recorded as the translator's, and the page lists it.
    const publications = await app.publications.list();
    expect(publications).toHaveLength(1);
    expect(publications[0]!.agent).toBe("translator");
    await page.locator(`.published li[data-slug="${publications[0]!.slug}"]`).waitFor(WAIT);
    expect(await page.locator(".published li").first().textContent()).toContain("Translator");

    await switchTo("Headline writer");
    const denied = await send("Publish it", { approval: { deny: "Not on a Friday" } });
    expect(await denied.locator(".reply__text").textContent()).toBe("Not published: the call was denied (Not on a Friday).");
    expect(await app.publications.list()).toHaveLength(1);

    const expected = ["headline-writer", "editor", "translator", "translator", "headline-writer"];
    const provenance = () => page.locator("article.turn .provenance").evaluateAll((all) => all.map((element) => element.getAttribute("data-written-by")));
    expect(await provenance()).toEqual(expected);
    expect(await page.locator("article.turn .provenance").nth(1).textContent()).toBe("Written by Editor editor");

    try {
      await mkdir(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: join(ARTIFACTS, "copy-agent.png"), fullPage: true });
    } catch {
      await page.screenshot({ path: join(tmp, "copy-agent.png"), fullPage: true });
    }

    // A reload reopens the session from the journal: the same provenance, read back from each turn's record.
    await page.reload();
    await expect.poll(provenance, WAIT).toEqual(expected);

    // The dataset built from the sessions carries each reply's agent as the version.
    const jsonl = await page.evaluate(async () => (await fetch("/api/dataset")).text());
    const cases = parseJSONL(jsonl);
    expect(cases.map((evalCase) => evalCase.metadata.responder)).toEqual(expected.map((version) => ({ kind: "agent", id: "copy-agent", version })));
    expect(cases.map((evalCase) => evalCase.input)).toEqual([
      "Headlines for our new espresso machine",
      "Edit: we are really very excited to launch the machine",
      "Translate that into French",
      "Publish it",
      "Publish it",
    ]);
  });

  it("fits a phone: nothing runs off the side, no button's text is cut, the Published panel shows whole", async () => {
    // After the first test: the session has turns and one publication, so every part of the page has content.
    for (const width of [420, 375]) {
      const phone = await browser.newPage({ viewport: { width, height: 800 } });
      try {
        await phone.goto(page.url());
        await phone.locator("article.turn .provenance").first().waitFor(WAIT);
        await phone.locator(".published li").first().waitFor(WAIT);
        const overflow = await phone.evaluate(() => {
          const viewport = document.documentElement.clientWidth;
          const describe = (element: Element) => `${element.tagName.toLowerCase()}${element.className ? `.${String(element.className).replace(/\s+/g, ".")}` : ""} "${(element.textContent ?? "").trim().slice(0, 30)}"`;
          const problems: string[] = [];
          if (document.documentElement.scrollWidth > viewport) problems.push(`the page scrolls sideways (${document.documentElement.scrollWidth} > ${viewport})`);
          for (const element of Array.from(document.querySelectorAll("body *"))) {
            const box = element.getBoundingClientRect();
            if (box.width === 0 || element.closest("details:not([open])")) continue;
            if (box.left < -0.5 || box.right > viewport + 0.5) problems.push(`${describe(element)} runs off the side (${Math.round(box.left)}..${Math.round(box.right)} of ${viewport})`);
          }
          for (const button of Array.from(document.querySelectorAll("button, a.link"))) {
            const element = button as HTMLElement;
            if (element.scrollWidth > element.clientWidth + 0.5) problems.push(`${describe(element)} is cut (${element.scrollWidth} > ${element.clientWidth})`);
            // One line of text: a button whose words wrap onto a second line reads as cut too.
            const range = document.createRange();
            range.selectNodeContents(element);
            const lines = new Set(Array.from(range.getClientRects()).map((rect) => Math.round(rect.top))).size;
            if (lines > 1) problems.push(`${describe(element)} wraps onto ${lines} lines`);
          }
          return problems;
        });
        expect(overflow, `at ${width} px`).toEqual([]);
        // The Published panel is on the page, whole: below the chat on a phone, its entries readable.
        const panel = await phone.getByRole("complementary", { name: "Published" }).boundingBox();
        expect(panel && panel.width, `the Published panel at ${width} px`).toBeGreaterThanOrEqual(width - 1);
        await phone.getByRole("button", { name: "New chat" }).waitFor(WAIT);
        try {
          await mkdir(ARTIFACTS, { recursive: true });
          await phone.screenshot({ path: join(ARTIFACTS, `copy-agent-${width}px.png`), fullPage: true });
        } catch {
          await phone.screenshot({ path: join(tmp, `copy-agent-${width}px.png`), fullPage: true });
        }
      } finally {
        await phone.close();
      }
    }
  });
});
