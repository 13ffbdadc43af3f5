// @vitest-environment node
import { createReadStream } from "node:fs";
import { mkdir, mkdtemp, rm, stat } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { extname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { everyRow } from "../__fixtures__/rows.js";
import type { ChatTraceRow } from "./types.js";

/**
 * The visual check: a page (src/__fixtures__/gallery, built with Vite) that draws every row kind in every
 * state, forced light and forced dark, in Debian's headless Chromium; its screenshot goes to artifacts/.
 */

const CHROMIUM = "/usr/bin/chromium";
const CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];
/** How long to wait for the page: generous, since the machine may be busy; never a timing assertion. */
const WAIT = { timeout: 20_000 };
const GALLERY = fileURLToPath(new URL("../__fixtures__/gallery/", import.meta.url));
const ARTIFACTS = fileURLToPath(new URL("../../../../artifacts/", import.meta.url));
const TYPES: Record<string, string> = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css" };

let tmp: string;
let server: Server;
let browser: Browser;
let page: Page;

function allRows(rows: readonly ChatTraceRow[]): ChatTraceRow[] {
  return rows.flatMap((row) => [row, ...allRows(row.children)]);
}

/** Serves the built gallery on 127.0.0.1, an ephemeral port. */
async function serve(dir: string): Promise<string> {
  server = createServer(async (request, response) => {
    const path = normalize(join(dir, new URL(request.url ?? "/", "http://x").pathname));
    const file = path.endsWith("/") ? join(path, "index.html") : path;
    if (!file.startsWith(dir) || !(await stat(file).catch(() => null))?.isFile()) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" });
    createReadStream(file).pipe(response);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

async function screenshotPath(name: string): Promise<string> {
  try {
    await mkdir(ARTIFACTS, { recursive: true });
    return join(ARTIFACTS, name);
  } catch {
    return join(tmp, name);
  }
}

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), "june-design-system-"));
  const outDir = join(tmp, "gallery");
  const { build } = await import("vite");
  await build({ configFile: false, root: GALLERY, base: "./", logLevel: "warn", build: { outDir, emptyOutDir: true } });
  const url = await serve(outDir);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(url);
  await page.locator('[data-testid="dark"] [data-row-id="approval-deploy"]').waitFor(WAIT);
});

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

describe("the trace rows in Chromium", () => {
  it("draws every row of every kind and state in both themes", async () => {
    const expected = allRows(everyRow);
    expect(new Set(expected.map((row) => row.kind))).toEqual(new Set(["step", "model", "tool", "approval"]));
    expect(new Set(expected.map((row) => row.status))).toEqual(new Set(["running", "pending", "done", "error"]));
    for (const theme of ["light", "dark"]) {
      const section = page.getByTestId(theme);
      for (const row of expected) {
        const element = section.locator(`[data-row-id="${row.id}"]`);
        await expect(element.getAttribute("data-kind")).resolves.toBe(row.kind);
        await expect(element.locator(":scope > .jt-row__line > .jt-row__title").textContent()).resolves.toBe(row.title);
        // Drawn, not just present: every row's line has a size on the page.
        const box = await element.locator(":scope > .jt-row__line").boundingBox();
        expect(box && box.width > 100 && box.height >= 20, `${theme} ${row.id} is drawn`).toBe(true);
      }
      await expect(section.getByRole("button", { name: "Approve" }).count()).resolves.toBe(1);
    }
  });

  it("takes its colours from CSS variables with a light and a dark value", async () => {
    const color = (theme: string, selector: string, property: "color" | "backgroundColor") =>
      page.getByTestId(theme).locator(selector).first().evaluate((element, p) => getComputedStyle(element)[p], property);
    expect(await color("light", ".jt-badge--running", "color")).toBe("rgb(47, 111, 222)");
    expect(await color("dark", ".jt-badge--running", "color")).toBe("rgb(122, 167, 245)");
    const background = (theme: string) => page.getByTestId(theme).evaluate((element) => getComputedStyle(element).backgroundColor);
    expect(await background("light")).toBe("rgb(255, 255, 255)");
    expect(await background("dark")).toBe("rgb(24, 26, 30)");
    expect(await color("light", ".jt-row--approval.jt-row--pending", "backgroundColor")).toBe("rgb(253, 244, 227)");
    expect(await color("dark", ".jt-row--approval.jt-row--pending", "backgroundColor")).toBe("rgb(46, 38, 22)");

    // Without a forced theme, the variables follow the system's colour scheme.
    const rootText = () => page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue("--jt-text").trim());
    await page.emulateMedia({ colorScheme: "dark" });
    expect(await rootText()).toBe("#e6e7ea");
    await page.emulateMedia({ colorScheme: "light" });
    expect(await rootText()).toBe("#1f2328");
  });

  it("keeps every label clear of its box (\"RESPONSE\" included)", async () => {
    const clashes = await page.evaluate(() =>
      Array.from(document.querySelectorAll(".jt-io__line")).flatMap((line) => {
        const label = line.querySelector(":scope > dt");
        const value = line.querySelector(":scope > dd");
        if (!label || !value) return [];
        const text = document.createRange();
        text.selectNodeContents(label);
        const labelRight = text.getBoundingClientRect().right;
        const valueLeft = value.getBoundingClientRect().left;
        // A gap between the label's text and its box, and the label on one line.
        const lines = new Set(Array.from(text.getClientRects()).map((rect) => Math.round(rect.top))).size;
        return labelRight + 4 <= valueLeft && lines === 1 ? [] : [`${label.textContent} (text ends at ${Math.round(labelRight)}, its box starts at ${Math.round(valueLeft)}, ${lines} lines)`];
      }),
    );
    expect(await page.locator(".jt-io__line[data-messages=response] dt").count()).toBeGreaterThan(0);
    expect(clashes).toEqual([]);
  });

  it("is screenshotted with the deny form open, then approves and denies through the actions", async () => {
    const dark = page.getByTestId("dark");
    await dark.getByRole("button", { name: "Deny…" }).click();
    await dark.getByLabel("Reason for denying").fill("Not on a Friday");
    const path = await screenshotPath("design-system-trace-rows.png");
    await page.screenshot({ path, fullPage: true });
    expect((await stat(path)).size).toBeGreaterThan(10_000);

    await dark.getByRole("button", { name: "Deny", exact: true }).click();
    await page.getByTestId("light").getByRole("button", { name: "Approve" }).click();
    await expect
      .poll(() => page.locator("#decisions li").allTextContents(), WAIT)
      .toEqual(["deny approval-1: Not on a Friday", "approve approval-1"]);
  });
});
