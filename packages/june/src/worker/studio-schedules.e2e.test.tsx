/**
 * Studio lists a chat's schedules, in Chromium: the real Studio app (built with Vite) served by `serveStudio`
 * over the worker tests' chat, its queue on pg-boss (PostgreSQL, schemas of this run's own). Read only: each
 * schedule's id, its cron and zone or its one-off time, its next run and its session, which opens on a click.
 * pg-boss 12 needs Node 22.12+: skipped below.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testSchema, type TestSchema } from "../stores/postgres/__fixtures__/postgres-test-db.js";
import { WAIT, screenshotPath, studioE2e } from "../server/__fixtures__/studio-page.js";
import { workerChat } from "./__fixtures__/worker-chat.js";

const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
const modernNode = major > 22 || (major === 22 && minor >= 12);

describe.skipIf(!modernNode)("Studio lists the chat's schedules (pg-boss, Chromium)", () => {
  const e2e = studioE2e("june-studio-schedules-");
  const root = mkdtempSync(join(tmpdir(), "june-studio-schedules-log-"));
  let pg: TestSchema;
  let parts: ReturnType<typeof workerChat>;

  beforeAll(async () => {
    pg = await testSchema("wstudio");
    parts = workerChat({ storeSchema: pg.schema, queueSchema: pg.another(), log: join(root, "model.log") });
  });
  afterAll(async () => {
    await parts?.queue.close();
    await parts?.store.close?.();
    rmSync(root, { recursive: true, force: true });
    await pg?.drop();
  });

  it("shows each schedule's id, cron or one-off time, next run and session; a schedule's session opens like any other", async () => {
    const { chat } = parts;
    const session = await chat.createSession();
    await chat.schedule({ id: "weekly-report", cron: "0 9 * * 1", timezone: "Europe/Paris", input: "Summarize the week", session: "new", owner: "ops" });
    await chat.schedule({ id: "remind-later", runAt: new Date(Date.now() + 3_600_000), input: "Remind me", session: session.id });
    const studio = await e2e.serve({ chat });
    const { page, pageErrors } = await e2e.newPage();
    await page.goto(studio.url);
    const list = page.getByRole("region", { name: "Schedules" });
    const weekly = list.locator('[data-schedule-id="weekly-report"]');
    await weekly.waitFor(WAIT);
    expect(await weekly.innerText()).toMatch(/weekly-report[\s\S]*0 9 \* \* 1 \(Europe\/Paris\)[\s\S]*next: [\s\S]*a new session each run/);
    const once = list.locator('[data-schedule-id="remind-later"]');
    expect(await once.innerText()).toMatch(/remind-later[\s\S]*once at [\s\S]*next: /);
    await page.screenshot({ path: await screenshotPath("studio-schedules.png") });
    await once.getByRole("button").click();
    await page.waitForFunction((id) => location.hash.includes(id), session.id, WAIT);
    expect(pageErrors).toEqual([]);
    await chat.unschedule("weekly-report");
    await chat.unschedule("remind-later");
  }, 180_000);
});
