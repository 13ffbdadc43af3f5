import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { serveStudio, type StudioServer } from "../serve-studio.js";

/**
 * The set-up the Studio e2e tests share (`studio*.e2e.test.tsx`): a temp folder, the real Studio app built
 * from packages/studio with Vite into it, Debian's headless Chromium, and the Studio servers a test file
 * starts (closed after all its tests). Call `studioE2e` once at the top of a test file: it registers the
 * `beforeAll` and `afterAll` hooks.
 */
export interface StudioE2e {
  /** This test file's temp folder (removed after all). */
  readonly tmp: string;
  /** Where the Studio app was built. */
  readonly staticDir: string;
  readonly browser: Browser;
  /** `serveStudio` over the built app; the server is closed after all unless closed before. */
  serve(options: Omit<Parameters<typeof serveStudio>[0], "staticDir">): Promise<StudioServer>;
  /** A new page and the errors it throws (`pageerror`), collected. */
  newPage(viewport?: { width: number; height: number }): Promise<{ page: Page; pageErrors: string[] }>;
}

const CHROMIUM = "/usr/bin/chromium";
const CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];
const STUDIO_SOURCE = fileURLToPath(new URL("../../../../studio/", import.meta.url));
const ARTIFACTS = fileURLToPath(new URL("../../../../../artifacts/", import.meta.url));

/** How long to wait for the page to catch up: generous, since the machine may be busy; never a timing assertion. */
export const WAIT = { timeout: 20_000 };

/** Where a screenshot goes: artifacts/ at the repository root, or the system's temp dir when that is read-only. */
export async function screenshotPath(name: string): Promise<string> {
  try {
    await mkdir(ARTIFACTS, { recursive: true });
    return join(ARTIFACTS, name);
  } catch {
    return join(tmpdir(), name);
  }
}

/** Registers the set-up (`beforeAll`) and the clean-up (`afterAll`); `prefix` names the temp folder. */
export function studioE2e(prefix: string): StudioE2e {
  let tmp: string | undefined;
  let browser: Browser | undefined;
  const servers: StudioServer[] = [];
  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`The Studio e2e tests need Chromium at ${CHROMIUM}: install it with \`apt-get install -y chromium\``);
    tmp = await mkdtemp(join(tmpdir(), prefix));
    const { build } = await import("vite");
    await build({ configFile: join(STUDIO_SOURCE, "vite.config.ts"), root: STUDIO_SOURCE, logLevel: "warn", build: { outDir: join(tmp, "studio-dist"), emptyOutDir: true } });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await Promise.all(servers.map((server) => server.close().catch(() => {})));
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });
  return {
    get tmp() {
      return tmp!;
    },
    get staticDir() {
      return join(tmp!, "studio-dist");
    },
    get browser() {
      return browser!;
    },
    async serve(options) {
      const server = await serveStudio({ ...options, staticDir: join(tmp!, "studio-dist") });
      servers.push(server);
      return server;
    },
    async newPage(viewport = { width: 1180, height: 860 }) {
      const page = await browser!.newPage({ viewport });
      const pageErrors: string[] = [];
      page.on("pageerror", (error) => pageErrors.push(error.message));
      return { page, pageErrors };
    },
  };
}
