/**
 * `june studio` restarted on the same store keeps its token and port (kept in `<store>.studio.json`, mode
 * 0600), so a tab left open reloads into Studio instead of "This Studio link has no valid token". Driven with
 * the BUILT `june` and Debian's Chromium.
 */
import { mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, packageDir } from "./__fixtures__/built-bin.js";
import { spawnJune, until, type Spawned } from "./__fixtures__/spawn-june.js";

const root = join(packageDir, "../..");
const cwd = mkdtempSync(join(tmpdir(), "june-studio-restart-"));
let browser: Browser;
const running: Spawned[] = [];

beforeAll(async () => {
  ensureBuilt();
  symlinkSync(join(root, "examples"), join(cwd, "examples"));
  browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
}, 180_000);

afterAll(async () => {
  for (const child of running) child.kill("SIGKILL");
  await browser?.close();
  rmSync(cwd, { recursive: true, force: true });
});

async function startStudio(args: string[] = [], env: Record<string, string> = {}): Promise<{ child: Spawned; url: string }> {
  const child = spawnJune(["studio", "examples/offline.tsx", ...args], { cwd, env: { NO_COLOR: "1", ...env } });
  running.push(child);
  await until(() => /http:\/\/\S+\?token=\S+/.test(child.stderr()), "the Studio URL");
  return { child, url: /(http:\/\/\S+\?token=\S+)/.exec(child.stderr())![1]! };
}

async function stop(child: Spawned): Promise<void> {
  child.kill("SIGINT");
  expect(await child.code).toBe(0);
}

describe("june studio across a restart", () => {
  it("keeps the token and port, so an open tab reloads into Studio", async () => {
    const first = await startStudio();
    const state = join(cwd, ".june/chat.studio.json");
    expect(statSync(state).mode & 0o777).toBe(0o600);
    const page = await browser.newPage();
    await page.goto(first.url);
    const sessions = () => page.evaluate(async () => (await fetch("/api/sessions")).status);
    expect(await sessions()).toBe(200);
    await stop(first.child);

    const second = await startStudio();
    expect(second.url).toBe(first.url);
    // The tab, left open on the old page, reloads (the address bar no longer needs ?token: the cookie holds it).
    await page.goto(new URL("/", first.url).href);
    await page.reload();
    expect(await page.locator('[data-june-studio="token-page"]').count()).toBe(0);
    expect(await sessions()).toBe(200);
    await page.close();
    await stop(second.child);
  }, 120_000);

  it("takes --token or JUNE_STUDIO_TOKEN over the kept one, refuses a malformed one, and replaces an unreadable file", async () => {
    const token = "a-token-of-my-own-0123456789";
    const given = await startStudio([], { JUNE_STUDIO_TOKEN: token });
    expect(given.url).toContain(`?token=${token}`);
    await stop(given.child);

    const bad = spawnJune(["studio", "examples/offline.tsx", "--token", "short"], { cwd, env: { NO_COLOR: "1" } });
    expect(await bad.code).toBe(2);
    expect(bad.stderr()).toMatch(/--token must be 16 to 512 URL-safe characters/);

    writeFileSync(join(cwd, ".june/chat.studio.json"), "{ not json");
    const fresh = await startStudio();
    expect(fresh.child.stderr()).toMatch(/chat\.studio\.json is unreadable \(it is not JSON\): Studio starts with a new token/);
    expect(fresh.url).not.toContain(token);
    await stop(fresh.child);
  }, 120_000);
});
