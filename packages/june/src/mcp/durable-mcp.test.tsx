/**
 * MCP tools inside durable turns: a tool of a real MCP server (the fixture, over stdio and over Streamable
 * HTTP) that needs approval, in a durable agent turn that suspends while it waits. A fresh chat over the same
 * store (another process, as far as the store knows) resumes it: approved, the call reaches the server once;
 * denied, never. The suspended turn holds no server process, and nothing of the call's input, nor the HTTP
 * server's credential, stays in the store once the turn ended.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { afterAll, describe, expect, it } from "vitest";
import type { McpServerSpec } from "june";
import { fileStore, TurnSuspendedError, type ChatStore, type Turn } from "june/chat";
import { mcpChat, SECRET } from "./__fixtures__/durable-mcp-chat.js";
import { startHttpFixture } from "./__fixtures__/http-server.js";

const STDIO_SERVER = fileURLToPath(new URL("./__fixtures__/stdio-server.mjs", import.meta.url));
const CHILD = fileURLToPath(new URL("./__fixtures__/durable-mcp-child.tsx", import.meta.url));
const packageDir = fileURLToPath(new URL("../..", import.meta.url));
const root = mkdtempSync(join(tmpdir(), "june-durable-mcp-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const fresh = () => {
  const dir = join(root, `d${n++}`);
  mkdirSync(dir, { recursive: true });
  return dir;
};

/** The HTTP server's credential: never in the store, at any time. */
const AUTH = "Bearer mcp-header-7f3a1c9e0d";

type LogEntry = { event: string; pid?: number; tool?: string; input?: unknown };

function stdioServer(dir: string) {
  const file = join(dir, "mcp.jsonl");
  return {
    file,
    server: { command: process.execPath, args: [STDIO_SERVER], env: { MCP_FIXTURE_LOG: file } },
    log: (): LogEntry[] => (existsSync(file) ? readFileSync(file, "utf8").trim().split("\n").filter(Boolean).map((line) => JSON.parse(line)) : []),
  };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Every byte under `dir`, as text. */
function everything(dir: string): string {
  let out = "";
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) out += readFileSync(join(entry.parentPath, entry.name), "utf8");
  }
  return out;
}

async function firstRequest(turn: Turn) {
  for await (const event of turn) if (event.type === "approval-request") return event.request;
  throw new Error("the turn ended without asking");
}

/** Starts a turn that asks for `note_save`, and waits until it suspended. */
async function suspended(store: ChatStore, server: McpServerSpec) {
  const session = await mcpChat({ store, server, suspendAfterMs: 50 }).createSession({ id: "s1" });
  const turn = session.send("note this");
  const request = await firstRequest(turn);
  expect(request).toMatchObject({ toolName: "note_save", input: { text: `remember ${SECRET}` } });
  const error = await turn.result.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(TurnSuspendedError);
  return { turnId: turn.id, request };
}

describe("MCP tools in durable turns", () => {
  it("stdio: suspended while the call waits (no server process left), resumed by a fresh chat and approved: the call reaches the server once", async () => {
    const dir = fresh();
    const { server, log } = stdioServer(dir);
    const { turnId, request } = await suspended(fileStore(join(dir, "chat")), server);
    // The suspended turn let go of its server: its process is gone, and no call reached it.
    const [first] = log().filter((e) => e.event === "start");
    expect(first).toBeDefined();
    await expect.poll(() => alive(first!.pid!)).toBe(false);
    expect(log().filter((e) => e.event === "call")).toEqual([]);

    const store = fileStore(join(dir, "chat"));
    const session = await mcpChat({ store, server }).openSession("s1");
    expect(await session.pendingApprovals()).toEqual([expect.objectContaining({ turnId, id: request.id, toolName: "note_save" })]);
    const live = await session.resume(turnId);
    expect(live.requests.map((r) => r.id)).toEqual([request.id]);
    expect(live.approve(request.id)).toBe(true);
    // Approved again (a second click): not pending any more, nothing more runs.
    expect(live.approve(request.id)).toBe(false);
    expect((await live.result).text).toBe("Saved: note 1.");
    expect(log().filter((e) => e.event === "call")).toEqual([{ event: "call", tool: "note_save", input: { text: `remember ${SECRET}` } }]);
    expect((await session.turns())[0]).toMatchObject({ id: turnId, status: "completed" });
    expect(await store.listCheckpoints!("s1")).toEqual([]);
    expect(everything(join(dir, "chat"))).not.toContain(SECRET);
    // Every server process the turn started (the first run's, the resumed run's) has ended.
    for (const start of log().filter((e) => e.event === "start")) await expect.poll(() => alive(start.pid!)).toBe(false);
  });

  it("stdio: resumed by a fresh chat and denied: the call never reaches the server", async () => {
    const dir = fresh();
    const { server, log } = stdioServer(dir);
    const { turnId, request } = await suspended(fileStore(join(dir, "chat")), server);
    const session = await mcpChat({ store: fileStore(join(dir, "chat")), server }).openSession("s1");
    const live = await session.resume(turnId);
    expect(live.deny(request.id, "not today")).toBe(true);
    expect((await live.result).text).toBe("Not done.");
    expect(log().filter((e) => e.event === "call")).toEqual([]);
    expect((await session.turns())[0]).toMatchObject({ id: turnId, status: "completed", text: "Not done." });
  });

  it("Streamable HTTP with a credential header: the header never reaches the store; approved after a resume, the call reaches the server once", async () => {
    const http = await startHttpFixture();
    try {
      const dir = fresh();
      const server = { url: http.url, headers: { Authorization: AUTH } };
      const { turnId, request } = await suspended(fileStore(join(dir, "chat")), server);
      // While suspended: the checkpoint holds the call's input (a person must see what they approve), never the header.
      expect(everything(join(dir, "chat"))).not.toContain(AUTH);
      expect(http.calls).toEqual([]);

      const session = await mcpChat({ store: fileStore(join(dir, "chat")), server }).openSession("s1");
      const live = await session.resume(turnId);
      expect(live.approve(request.id)).toBe(true);
      expect((await live.result).text).toBe("Saved: note 1.");
      expect(http.calls).toEqual([{ tool: "note_save", input: { text: `remember ${SECRET}` } }]);
      expect(http.headers.every((h) => h.authorization === AUTH)).toBe(true);
      const stored = everything(join(dir, "chat"));
      expect(stored).not.toContain(AUTH);
      expect(stored).not.toContain(SECRET);
    } finally {
      await http.close();
    }
  });

  it("killed (SIGKILL) while the approved call runs on the server: a fresh chat finds it started, asks again (retry), and a denial runs nothing more", async () => {
    const dir = fresh();
    const { file, log } = stdioServer(dir);
    const child = spawn(process.execPath, ["--import", "tsx", CHILD, join(dir, "chat"), "s1", file, STDIO_SERVER], { cwd: packageDir, stdio: ["ignore", "pipe", "inherit"] });
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    try {
      let waiting: { turnId: string; requestId: string } | undefined;
      for await (const line of createInterface({ input: child.stdout })) {
        waiting = JSON.parse(line);
        break;
      }
      // The call reached the server (it waits there): the process dies before its result is checkpointed.
      await expect.poll(() => log().filter((e) => e.event === "call").length, { timeout: 10_000 }).toBe(1);
      child.kill("SIGKILL");
      await exited;
      const { turnId, requestId } = waiting!;

      const session = await mcpChat({ store: fileStore(join(dir, "chat")), server: stdioServer(dir).server, tool: "slow" }).openSession("s1");
      expect((await session.turns())[0]).toMatchObject({ id: turnId, status: "interrupted", resumable: true });
      // Started and never finished: a request again, marked as a retry, never run again on the old approval.
      expect(await session.pendingApprovals()).toEqual([expect.objectContaining({ turnId, id: requestId, toolName: "slow", retry: true })]);
      const live = await session.resume(turnId);
      expect(live.requests.map((r) => r.id)).toEqual([requestId]);
      expect(live.deny(requestId, "it ran already")).toBe(true);
      expect((await live.result).text).toBe("Not done.");
      expect(log().filter((e) => e.event === "call")).toHaveLength(1);
      expect(everything(join(dir, "chat"))).not.toContain(SECRET);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    }
  });
});
