// End to end through the BUILT bin: `june resume`, `june sessions list` and `june chat --session` on a
// session whose durable turn suspended (made here, in this process, over the same file store).
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fileStore } from "../chat/index.js";
import { durableChat, SECRET } from "../chat/__fixtures__/durable-chat.js";
import { ensureBuilt } from "./__fixtures__/built-bin.js";
import { spawnJune, until } from "./__fixtures__/spawn-june.js";

const fixture = fileURLToPath(new URL("./__fixtures__/durable-deploy-chat.tsx", import.meta.url));
const root = mkdtempSync(join(tmpdir(), "june-resume-e2e-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
beforeAll(() => ensureBuilt(), 120_000);
let n = 0;
const lines = (path: string) => (existsSync(path) ? readFileSync(path, "utf8").split("\n").filter(Boolean) : []);

/** A fresh directory with a session "s1" whose one turn suspended waiting on `deploy`. */
async function suspended() {
  const cwd = join(root, `d${n++}`);
  const store = join(cwd, "chat");
  const log = join(cwd, "calls.log");
  const { chat } = durableChat({ store: fileStore(store), log, durable: { suspendAfterMs: 20 } });
  const session = await chat.createSession({ id: "s1" });
  const turn = session.send("ship the docs");
  for await (const event of turn) if (event.type === "approval-request") break;
  await turn.result.catch(() => {});
  expect(turn.status).toBe("suspended");
  return { cwd, store, log, turnId: turn.id, env: { JUNE_TEST_STORE: store, JUNE_TEST_LOG: log } };
}

describe("june resume (built bin)", () => {
  it("lists the session as suspended, resumes it with --yes (tool once, reply on stdout), then has nothing to resume", async () => {
    const { cwd, store, log, turnId, env } = await suspended();
    const listed = spawnJune(["sessions", "list", "--store", store], { cwd });
    expect(await listed.code).toBe(0);
    expect(listed.stdout()).toMatch(/^s1\t.*\tsuspended$/m);

    const run = spawnJune(["resume", fixture, "s1", "--yes"], { cwd, env });
    expect(await run.code, run.stderr()).toBe(0);
    expect(run.stdout()).toBe('Deployed: "live on prod".');
    expect(run.stderr()).toContain(`resuming turn ${turnId}`);
    expect(run.stderr()).toContain("deploy wants to run with");
    expect(run.stderr()).toContain("approved deploy");
    expect(run.stdout() + run.stderr()).not.toContain(SECRET);
    expect(lines(log).filter((l) => l.startsWith("deploy"))).toEqual([`deploy prod ${SECRET}`]);

    const again = spawnJune(["resume", fixture, "s1"], { cwd, env });
    expect(await again.code).toBe(2);
    expect(again.stderr()).toContain('Session "s1" has no suspended turn: nothing to resume');
    const missing = spawnJune(["resume", fixture, "nope", "--yes"], { cwd, env });
    expect(await missing.code).toBe(2);
    expect(missing.stderr()).toContain("nope");
    const relisted = spawnJune(["sessions", "list", "--store", store], { cwd });
    expect(await relisted.code).toBe(0);
    expect(relisted.stdout()).not.toContain("suspended");
  }, 60_000);

  it("without a terminal or --yes/--deny: exit 2, nothing decided, the turn stays suspended", async () => {
    const { cwd, store, log, env } = await suspended();
    const run = spawnJune(["resume", fixture, "s1"], { cwd, env });
    expect(await run.code).toBe(2);
    expect(run.stderr()).toContain("pass --yes or --deny");
    expect(lines(log).filter((l) => l.startsWith("deploy"))).toEqual([]);
    const turns = await (await durableChat({ store: fileStore(store) }).chat.openSession("s1")).turns();
    expect(turns[0]).toMatchObject({ status: "suspended", resumable: true });
  }, 60_000);

  it("--cancel ends the suspended turn: nothing runs, it lists canceled, nothing is left to resume", async () => {
    const { cwd, store, log, turnId, env } = await suspended();
    const both = spawnJune(["resume", fixture, "s1", "--cancel", "--yes"], { cwd, env });
    expect(await both.code).toBe(2);
    expect(both.stderr()).toContain("--cancel ends the turn without deciding anything");

    const run = spawnJune(["resume", fixture, "s1", turnId, "--cancel"], { cwd, env });
    expect(await run.code, run.stderr()).toBe(0);
    expect(run.stdout()).toBe("");
    expect(run.stderr()).toContain(`canceled turn ${turnId}`);
    // Only the calls from before it suspended: no model call, no tool run since.
    expect(lines(log)).toEqual(["model plan", "model work-ask"]);
    const listed = spawnJune(["sessions", "list", "--store", store], { cwd });
    expect(await listed.code).toBe(0);
    expect(listed.stdout()).toMatch(/^s1\t/m);
    expect(listed.stdout()).not.toContain("suspended");
    const turns = await (await durableChat({ store: fileStore(store) }).chat.openSession("s1")).turns();
    expect(turns[0]).toMatchObject({ id: turnId, status: "canceled" });
    expect(turns[0]!.resumable).toBeUndefined();
    expect(await fileStore(store).getCheckpoint!("s1", turnId)).toBeUndefined();

    const again = spawnJune(["resume", fixture, "s1", "--cancel"], { cwd, env });
    expect(await again.code).toBe(2);
    expect(again.stderr()).toContain('Session "s1" has no suspended turn: nothing to cancel');
  }, 60_000);

  it("--cancel while another process runs the resumed turn: exit 1, the session is busy, the turn goes on", async () => {
    const { cwd, store, log, turnId, env } = await suspended();
    // This process resumes the turn and holds it, waiting on its request.
    const { chat } = durableChat({ store: fileStore(store), log });
    const live = await (await chat.openSession("s1")).resume(turnId);
    const run = spawnJune(["resume", fixture, "s1", "--cancel"], { cwd, env });
    expect(await run.code).toBe(1);
    expect(run.stderr()).toContain(`cannot cancel turn ${turnId}`);
    expect(run.stderr()).toContain("busy");
    expect(live.status).toBe("running");
    expect(live.approve(live.requests[0]!.id)).toBe(true);
    await expect(live.result).resolves.toMatchObject({ text: 'Deployed: "live on prod".' });
  }, 60_000);

  it("june chat --session asks for the suspended turn's request on the terminal, continues it, then prompts", async () => {
    const { cwd, log, env } = await suspended();
    // Suspends after 50 ms unless held: the prompt stays open far longer.
    const run = spawnJune(["chat", fixture, "--session", "s1"], { cwd, env: { ...env, JUNE_TEST_SUSPEND_MS: "50" }, terminal: true });
    await until(() => run.stdout().includes("approve? [y/N/e(dit)]"), "the approval prompt");
    expect(run.stdout()).toContain("deploy wants to run with");
    expect(run.stdout()).not.toContain(SECRET);
    await new Promise((resolve) => setTimeout(resolve, 300));
    run.write("y\r");
    await until(() => run.stdout().includes('Deployed: "live on prod".'), "the rest of the reply");
    await until(() => run.stdout().includes("› "), "the REPL prompt");
    run.write("\x04");
    expect(await run.code).toBe(0);
    expect(run.stdout()).not.toContain("suspended");
    expect(lines(log).filter((l) => l.startsWith("deploy"))).toEqual([`deploy prod ${SECRET}`]);
  }, 60_000);
});
