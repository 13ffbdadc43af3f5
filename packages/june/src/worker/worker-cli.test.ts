/**
 * `june worker <file> --queue URL` in process: it runs the module's queued turns until Ctrl-C. On PostgreSQL,
 * Node 22.12+ (pg-boss 12); skipped on an older Node.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFakeIO } from "../cli/__fixtures__/fake-io.js";
import { runCli } from "../cli/main.js";
import { TEST_DATABASE_URL, testSchema, type TestSchema } from "../stores/postgres/__fixtures__/postgres-test-db.js";
import { workerChat } from "./__fixtures__/worker-chat.js";

const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
const modernNode = major > 22 || (major === 22 && minor >= 12);
const module = fileURLToPath(new URL("./__fixtures__/worker-chat-module.tsx", import.meta.url));

describe.skipIf(!modernNode)("june worker (needs Node 22.12+ for pg-boss 12)", () => {
  const root = mkdtempSync(join(tmpdir(), "june-worker-cli-"));
  let pg: TestSchema;
  let queueSchema: string;
  beforeAll(async () => {
    pg = await testSchema("workercli");
    queueSchema = pg.another();
    process.env.JUNE_WORKER_STORE_SCHEMA = pg.schema;
    process.env.JUNE_WORKER_QUEUE_SCHEMA = queueSchema;
    process.env.JUNE_WORKER_LOG = join(root, "model.log");
  });
  afterAll(async () => {
    rmSync(root, { recursive: true, force: true });
    await pg?.drop();
  });

  it("runs a turn enqueued before it started, prints the job's outcome, and stops on Ctrl-C with 0", async () => {
    const { chat, queue, store } = workerChat({ storeSchema: pg.schema, queueSchema, log: join(root, "model.log") });
    const session = await chat.createSession();
    const { turnId } = await session.enqueue("from the cli");
    const io = createFakeIO({ cwd: root });
    const running = runCli({ argv: ["worker", module, "--queue", TEST_DATABASE_URL, "--queue-schema", queueSchema, "--concurrency", "2", "--take-over-after", "10000"], io });
    const until = Date.now() + 60_000;
    while ((await session.turns())[0]?.status !== "completed") {
      if (Date.now() > until) throw new Error(`the turn did not complete: ${io.stderrText()}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect((await session.turns()).map((t) => [t.id, t.text])).toEqual([[turnId, "done: from the cli"]]);
    io.interrupt();
    expect(await running).toBe(0);
    expect(io.stderrText()).toContain(`"turnId":"${turnId}"`);
    expect(io.stderrText()).toContain(`pg-boss at 127.0.0.1:5432/test, schema ${queueSchema}`);
    await queue.close();
    await store.close?.();
  }, 90_000);

  it("refuses a missing --queue (2) and says which queue it cannot reach (1)", async () => {
    const missing = createFakeIO({ cwd: root, env: {} });
    expect(await runCli({ argv: ["worker", module], io: missing })).toBe(2);
    expect(missing.stderrText()).toContain("--queue");
    const down = createFakeIO({ cwd: root });
    expect(await runCli({ argv: ["worker", module, "--queue", "postgres://postgres:hunter2@127.0.0.1:1/test"], io: down })).toBe(1);
    expect(down.stderrText()).toContain("127.0.0.1:1/test");
    expect(down.stderrText()).not.toContain("hunter2");
  }, 60_000);

  it("june schedule add, list and rm: a cron schedule listed with its cron, a bad one refused (2) and nothing kept", async () => {
    const june = async (...argv: string[]) => {
      const io = createFakeIO({ cwd: root });
      const code = await runCli({ argv: [...argv, "--queue", TEST_DATABASE_URL, "--queue-schema", queueSchema], io });
      return { code, stdout: io.stdoutText(), stderr: io.stderrText() };
    };
    const added = await june("schedule", "add", module, "--id", "cli-weekly", "--cron", "0 9 * * 1", "--timezone", "Europe/Paris", "--input", "Summarize the week");
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toMatch(/^cli-weekly\t0 9 \* \* 1 \(Europe\/Paris\)\t\d{4}-/);
    const bad = await june("schedule", "add", module, "--id", "cli-bad", "--cron", "every monday", "--input", "x");
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("cron");
    const listed = await june("schedule", "list", "--json");
    expect(listed.stdout.trim().split("\n").map((l) => JSON.parse(l) as { id: string; cron: string })).toEqual([
      expect.objectContaining({ id: "cli-weekly", cron: "0 9 * * 1", timezone: "Europe/Paris", session: "new" }),
    ]);
    expect((await june("schedule", "rm", "cli-weekly")).code).toBe(0);
    expect((await june("schedule", "rm", "cli-weekly")).code).toBe(1);
    expect((await june("schedule", "list")).stdout).toBe("");
  }, 60_000);
});
