/**
 * A durable turn whose front agent calls a sub-agent as a tool (`<Tool agent>`), killed (SIGKILL) while the
 * sub-agent waits on approval: a fresh process lists the request named with the sub-agent's path, resumes
 * inside the sub-workflow and approves; the tool runs once, no finished step or model call is made again.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { afterAll, expect, it } from "vitest";
import { fileStore } from "../stores/file-store.js";
import { subAgentChat } from "./__fixtures__/subagent-chat.js";
import { createS1, resumeAfterDeath } from "./__fixtures__/durable-stores.js";

const packageDir = fileURLToPath(new URL("../..", import.meta.url));
const fixture = fileURLToPath(new URL("./__fixtures__/subagent-chat.tsx", import.meta.url));
const root = mkdtempSync(join(tmpdir(), "june-subagent-kill-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const lines = (path: string) => (existsSync(path) ? readFileSync(path, "utf8").split("\n").filter(Boolean) : []);

it("killed while the sub-agent waits for approval: another process resumes inside the sub-workflow; the tool runs once, the sub-agent's finished step and the front's call are not made again", async () => {
  const dir = join(root, "store");
  const log = join(root, "calls.log");
  await createS1("file", dir);
  const proc = spawn(process.execPath, ["--import", "tsx", fixture, dir, "s1", log], { cwd: packageDir, stdio: ["ignore", "pipe", "inherit"] });
  const exited = new Promise<void>((resolve) => proc.once("exit", () => resolve()));
  let waiting: Record<string, string> | undefined;
  for await (const line of createInterface({ input: proc.stdout })) {
    waiting = JSON.parse(line) as Record<string, string>;
    if (waiting.event === "waiting") break;
  }
  proc.kill("SIGKILL");
  await exited;
  expect(waiting).toMatchObject({ event: "waiting", stepId: "answer/research/notes" });
  expect(lines(log)).toEqual(["front ask", "sub outline", "sub notes-ask"]);

  const store = fileStore(dir);
  try {
    const session = await subAgentChat({ store, log }).openSession("s1");
    expect(await session.pendingApprovals()).toEqual([
      expect.objectContaining({ turnId: waiting!.turnId, id: waiting!.requestId, toolName: "fetchPage", input: { url: "https://example.com/sky" } }),
    ]);
    const turn = await resumeAfterDeath(session, waiting!.turnId!);
    expect(turn.requests.map((request) => [request.id, request.stepId])).toEqual([[waiting!.requestId, "answer/research/notes"]]);
    expect(turn.approve(waiting!.requestId!)).toBe(true);
    const result = await turn.result;
    expect(result.text).toBe("It is Rayleigh scattering.");
    expect(lines(log)).toEqual(["front ask", "sub outline", "sub notes-ask", "fetch https://example.com/sky", "sub notes-answer", "front answer"]);
    // Every call's tokens, the killed process's included (kept in the checkpoint).
    expect(result.metadata?.usage).toEqual({ inputTokens: 42, outputTokens: 15, totalTokens: 57 });
    expect((await session.turns())[0]).toMatchObject({ status: "completed", text: result.text });
  } finally {
    await store.close?.();
  }
});
