import { mkdtempSync, readFileSync, existsSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { jsonSchema, tool } from "ai";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  Agent,
  McpConnectionError,
  McpTools,
  RenderError,
  RunError,
  Step,
  Tool,
  mcpConnections,
  start,
  type McpStdioServer,
  type RunHandle,
  type ToolCallNode,
  type TraceNode,
} from "june";
import { scriptedModel, type ScriptCallInfo } from "june/testing";
import { startHttpFixture, type HttpFixture } from "./__fixtures__/http-server.js";

const STDIO_SERVER = fileURLToPath(new URL("./__fixtures__/stdio-server.mjs", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "june-mcp-"));
let logCount = 0;

/** A stdio fixture server that logs its pid and every call it hears to a file of its own. */
function stdioServer(): { server: McpStdioServer; log: () => { event: string; pid?: number; tool?: string; input?: unknown }[] } {
  const file = join(dir, `log-${logCount++}.jsonl`);
  return {
    server: { command: process.execPath, args: [STDIO_SERVER], env: { MCP_FIXTURE_LOG: file } },
    log: () => (existsSync(file) ? readFileSync(file, "utf8").trim().split("\n").filter(Boolean).map((line) => JSON.parse(line)) : []),
  };
}

function toolCalls(tree: TraceNode): ToolCallNode[] {
  const found: ToolCallNode[] = tree.kind === "tool-call" ? [tree] : [];
  for (const child of tree.children) found.push(...toolCalls(child));
  return found;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The text of the last tool message the model was sent (what the model saw of a tool's result). */
function lastToolResult(call: ScriptCallInfo): unknown {
  const tool = [...call.options.prompt].reverse().find((m) => m.role === "tool");
  const part = tool?.content.find((p) => p.type === "tool-result") as { output?: unknown } | undefined;
  return part?.output;
}

async function firstRequest(run: RunHandle): Promise<void> {
  for (let i = 0; i < 400 && run.requests.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
  expect(run.requests.length).toBeGreaterThan(0);
}

let http: HttpFixture;
beforeAll(async () => {
  http = await startHttpFixture();
});
afterAll(async () => {
  await http.close();
  rmSync(dir, { recursive: true, force: true });
});
afterEach(() => {
  http.calls.length = 0;
  http.headers.length = 0;
});

describe("<McpTools> over stdio", () => {
  it("the model calls an MCP tool and gets its result; the trace shows an ordinary tool node with the server's name; the process is gone when the run ends", async () => {
    const { server, log } = stdioServer();
    const seen: unknown[] = [];
    const model = scriptedModel((call) => {
      if (call.index === 0) return { toolCalls: [{ toolName: "add", input: { a: 2, b: 3 }, toolCallId: "c1" }] };
      seen.push(lastToolResult(call));
      return "The sum is 5.";
    });
    const run = start(
      <Agent model={model}>
        <McpTools name="calc" server={server} />
        <Step id="answer" prompt="What is 2 + 3?" />
      </Agent>,
    );
    const result = await run.result;
    expect(result.steps.answer).toBe("The sum is 5.");
    expect(JSON.stringify(seen)).toContain('"5"');
    const [node] = toolCalls(result.trace);
    expect(node).toMatchObject({ kind: "tool-call", name: "add", toolName: "add", status: "done", input: { a: 2, b: 3 }, mcp: { server: "calc", tool: "add" } });
    expect(JSON.stringify(node!.output)).toContain('"5"');
    const entries = log();
    expect(entries.filter((e) => e.event === "call")).toEqual([{ event: "call", tool: "add", input: { a: 2, b: 3 } }]);
    const pid = entries.find((e) => e.event === "start")!.pid!;
    expect(alive(pid)).toBe(false);
  });

  it("is connected once and shared by the run's steps", async () => {
    const { server, log } = stdioServer();
    const model = scriptedModel([
      { toolCalls: [{ toolName: "echo", input: { text: "one" }, toolCallId: "a" }] },
      "first",
      { toolCalls: [{ toolName: "echo", input: { text: "two" }, toolCallId: "b" }] },
      "second",
    ]);
    const result = await start(
      <Agent model={model}>
        <McpTools server={server} />
        <Step id="one" prompt="1" />
        <Step id="two" prompt="2" />
      </Agent>,
    ).result;
    expect(result.steps).toEqual({ one: "first", two: "second" });
    const entries = log();
    expect(entries.filter((e) => e.event === "start")).toHaveLength(1);
    expect(entries.filter((e) => e.event === "call").map((e) => e.input)).toEqual([{ text: "one" }, { text: "two" }]);
  });

  it("needsApproval makes the call wait; deny never reaches the server; approve does, once", async () => {
    const { server, log } = stdioServer();
    const model = scriptedModel([
      { toolCalls: [{ toolName: "echo", input: { text: "secret" }, toolCallId: "d1" }] },
      "denied, fine",
      { toolCalls: [{ toolName: "echo", input: { text: "hello" }, toolCallId: "d2" }] },
      "approved",
    ]);
    const run = start(
      <Agent model={model}>
        <McpTools name="fixture" server={server} needsApproval={["echo"]} />
        <Step id="first" prompt="1" />
        <Step id="second" prompt="2" />
      </Agent>,
    );
    await firstRequest(run);
    expect(run.requests[0]).toMatchObject({ stepId: "first", toolName: "echo", input: { text: "secret" }, mcp: { server: "fixture", tool: "echo" } });
    expect(run.decide(run.requests[0]!.id, { approved: false, reason: "not that" })).toEqual({ kind: "decided" });
    await firstRequest(run);
    expect(run.requests[0]).toMatchObject({ stepId: "second", toolName: "echo" });
    expect(run.decide(run.requests[0]!.id, { approved: true })).toEqual({ kind: "decided" });
    const result = await run.result;
    expect(result.steps).toEqual({ first: "denied, fine", second: "approved" });
    const calls = log().filter((e) => e.event === "call");
    expect(calls).toEqual([{ event: "call", tool: "echo", input: { text: "hello" } }]);
    const nodes = toolCalls(result.trace);
    expect(nodes[0]).toMatchObject({ status: "done", approval: { state: "denied", reason: "not that" }, mcp: { server: "fixture" } });
    expect(nodes[0]!.output).toBeUndefined();
    expect(nodes[1]).toMatchObject({ status: "done", approval: { state: "approved" } });
  });

  it("needsApproval as a function of the tool and its input", async () => {
    const { server, log } = stdioServer();
    const asked: unknown[] = [];
    const model = scriptedModel([
      { toolCalls: [{ toolName: "add", input: { a: 1, b: 1 }, toolCallId: "x1" }, { toolName: "add", input: { a: 100, b: 1 }, toolCallId: "x2" }] },
      "done",
    ]);
    const run = start(
      <Agent model={model}>
        <McpTools
          server={server}
          needsApproval={(tool, input) => {
            asked.push([tool.name, tool.server, input]);
            return (input as { a: number }).a > 10;
          }}
        />
        <Step id="s" prompt="go" />
      </Agent>,
    );
    await firstRequest(run);
    expect(run.requests).toHaveLength(1);
    expect(run.requests[0]!.input).toEqual({ a: 100, b: 1 });
    run.decide(run.requests[0]!.id, { approved: false });
    await run.result;
    expect(log().filter((e) => e.event === "call").map((e) => e.input)).toEqual([{ a: 1, b: 1 }]);
    expect(asked).toContainEqual(["add", `node ${STDIO_SERVER}`, { a: 100, b: 1 }]);
  });

  it("include, exclude, prefix and per-tool overrides shape what the model is offered", async () => {
    const { server } = stdioServer();
    const offered: string[][] = [];
    const descriptions: Record<string, string | undefined> = {};
    const model = scriptedModel((call) => {
      offered.push((call.options.tools ?? []).map((t) => t.name).sort());
      for (const t of call.options.tools ?? []) if (t.type === "function") descriptions[t.name] = t.description;
      if (call.index === 0) return { toolCalls: [{ toolName: "fx_add", input: { a: 4, b: 4 }, toolCallId: "p1" }] };
      return "8";
    });
    const result = await start(
      <Agent model={model}>
        <McpTools server={server} include={["add", "echo", "slow"]} exclude={(t) => t.name === "slow"} prefix="fx_" tools={{ echo: { name: "say", description: "Says it" } }} />
        <Step id="s" prompt="go" />
      </Agent>,
    ).result;
    expect(offered[0]).toEqual(["fx_add", "say"]);
    expect(descriptions.say).toBe("Says it");
    expect(descriptions.fx_add).toBe("Adds two numbers");
    expect(toolCalls(result.trace)[0]).toMatchObject({ toolName: "fx_add", status: "done", mcp: { tool: "add" } });
  });

  it("an <McpTools> inside a Step serves that step alone", async () => {
    const { server } = stdioServer();
    const offered: string[][] = [];
    const model = scriptedModel((call) => {
      offered.push((call.options.tools ?? []).map((t) => t.name).sort());
      return "ok";
    });
    await start(
      <Agent model={model}>
        <Step id="with" prompt="1">
          <McpTools server={server} include={["add"]} />
        </Step>
        <Step id="without" prompt="2" />
      </Agent>,
    ).result;
    expect(offered).toEqual([["add"], []]);
  });

  it("a tool that errors is a tool error the model sees; the step goes on", async () => {
    const { server } = stdioServer();
    let seen: unknown;
    const model = scriptedModel((call) => {
      if (call.index === 0) return { toolCalls: [{ toolName: "fail", input: { message: "disk full" }, toolCallId: "f1" }] };
      seen = lastToolResult(call);
      return "It failed: disk full.";
    });
    const result = await start(
      <Agent model={model}>
        <McpTools name="fixture" server={server} />
        <Step id="s" prompt="go" />
      </Agent>,
    ).result;
    expect(result.steps.s).toBe("It failed: disk full.");
    // AI SDK 7 puts the error's name in front of its message ("McpToolError: disk full").
    expect(seen).toMatchObject({ type: "error-text", value: expect.stringMatching(/^(McpToolError: )?disk full$/) });
    expect(toolCalls(result.trace)[0]).toMatchObject({ status: "error", error: { name: "McpToolError", message: "disk full" } });
  });

  it("a server that cannot start fails the step with an McpConnectionError naming it", async () => {
    const model = scriptedModel(["never"]);
    const run = start(
      <Agent model={model}>
        <McpTools name="ghost" server={{ command: join(dir, "no-such-server") }} />
        <Step id="s" prompt="go" />
      </Agent>,
    );
    const error = await run.result.catch((e: unknown) => e);
    expect(RunError.isInstance(error)).toBe(true);
    const cause = (error as RunError).cause;
    expect(McpConnectionError.isInstance(cause)).toBe(true);
    expect((cause as McpConnectionError).server).toBe("ghost");
    expect((cause as Error).message).toMatch(/MCP server "ghost" could not be connected: .*ENOENT/);
    expect((error as RunError).result.trace.children[0]!.children[0]).toMatchObject({ kind: "step", status: "error", error: { name: "McpConnectionError" } });
    expect(model.callCount).toBe(0);
  });

  it("a server that exits before answering fails the step naming it (default name: the command line)", async () => {
    const run = start(
      <Agent model={scriptedModel(["never"])}>
        <McpTools server={{ command: process.execPath, args: ["-e", "process.exit(3)"] }} />
        <Step id="s" prompt="go" />
      </Agent>,
    );
    const error = (await run.result.catch((e: unknown) => e)) as RunError;
    expect((error.cause as McpConnectionError).server).toBe("node -e process.exit(3)");
    expect((error.cause as Error).message).toMatch(/^MCP server "node -e process.exit\(3\)" could not be connected/);
  });

  it("the stdio process is gone after a run fails", async () => {
    const { server, log } = stdioServer();
    const model = scriptedModel([{ toolCalls: [{ toolName: "echo", input: { text: "x" }, toolCallId: "e1" }] }, { error: new Error("provider down"), errorAt: "start" }]);
    const error = await start(
      <Agent model={model}>
        <McpTools server={server} />
        <Step id="s" prompt="go" />
      </Agent>,
    ).result.catch((e: unknown) => e);
    expect((error as RunError).result.status).toBe("error");
    const pid = log().find((e) => e.event === "start")!.pid!;
    expect(alive(pid)).toBe(false);
  });

  it("the stdio process is gone after a run is canceled during a tool call", async () => {
    const { server, log } = stdioServer();
    const model = scriptedModel([{ toolCalls: [{ toolName: "slow", input: { ms: 30_000 }, toolCallId: "w1" }] }, "never"]);
    const run = start(
      <Agent model={model}>
        <McpTools server={server} />
        <Step id="s" prompt="go" />
      </Agent>,
    );
    for (let i = 0; i < 500 && !log().some((e) => e.event === "call"); i++) await new Promise((r) => setTimeout(r, 10));
    run.cancel("stop");
    const error = (await run.result.catch((e: unknown) => e)) as RunError;
    expect(error.result.status).toBe("canceled");
    const pid = log().find((e) => e.event === "start")!.pid!;
    expect(alive(pid)).toBe(false);
  });

  it("a run canceled while its server is still starting ends canceled, and the server's process is gone", async () => {
    const pidFile = join(dir, "hung.pid");
    const hung = `require("fs").writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); setInterval(() => {}, 1000);`;
    const run = start(
      <Agent model={scriptedModel(["never"])}>
        <McpTools name="hung" server={{ command: process.execPath, args: ["-e", hung] }} />
        <Step id="s" prompt="go" />
      </Agent>,
    );
    const pidOf = () => (existsSync(pidFile) ? Number(readFileSync(pidFile, "utf8")) : 0);
    // Until the file holds a whole pid (0 would mean "this process group" to process.kill).
    for (let i = 0; i < 1000 && !(pidOf() > 0); i++) await new Promise((r) => setTimeout(r, 10));
    const pid = pidOf();
    expect(pid).toBeGreaterThan(0);
    expect(alive(pid)).toBe(true);
    run.cancel();
    const error = (await run.result.catch((e: unknown) => e)) as RunError;
    expect(error.result.status).toBe("canceled");
    expect(alive(pid)).toBe(false);
  });

  it("a name used by a <Tool> and an MCP tool in one scope fails the step; prefix resolves it", async () => {
    const { server } = stdioServer();
    const echo = tool({ inputSchema: jsonSchema({ type: "object", properties: {} }), execute: async () => "mine" });
    const clash = await start(
      <Agent model={scriptedModel(["x"])}>
        <Tool name="echo" value={echo} />
        <McpTools server={server} />
        <Step id="s" prompt="go" />
      </Agent>,
    ).result.catch((e: unknown) => e);
    expect(((clash as RunError).cause as Error).message).toMatch(/Two tools are named "echo": <Tool name="echo"> and the MCP server/);
    const ok = await start(
      <Agent model={scriptedModel(["x"])}>
        <Tool name="echo" value={echo} />
        <McpTools server={server} prefix="m_" />
        <Step id="s" prompt="go" />
      </Agent>,
    ).result;
    expect(ok.steps.s).toBe("x");
  });

  it("bad props are a RenderError naming the element; nothing runs", () => {
    expect(() => start(<Agent model={scriptedModel([])}><McpTools server={{ command: "" }} /><Step id="s" prompt="x" /></Agent>)).toThrow(RenderError);
    expect(() => start(<Agent model={scriptedModel([])}><McpTools name="web" server="ftp://example.test" /><Step id="s" prompt="x" /></Agent>)).toThrow(
      /<McpTools name="web">: `server` URL must be http: or https:/,
    );
    expect(() => start(<Agent model={scriptedModel([])}><McpTools server={{ command: "x" }} needsApproval={"yes" as never} /><Step id="s" prompt="x" /></Agent>)).toThrow(
      /needsApproval/,
    );
  });
});

describe("<McpTools> over Streamable HTTP", () => {
  it("calls a tool on a server on 127.0.0.1 with the headers given, which never reach the trace", async () => {
    const model = scriptedModel([{ toolCalls: [{ toolName: "add", input: { a: 20, b: 22 }, toolCallId: "h1" }] }, "42"]);
    const result = await start(
      <Agent model={model}>
        <McpTools server={{ url: http.url, headers: { authorization: "Bearer sk-secret-1" } }} />
        <Step id="s" prompt="go" />
      </Agent>,
    ).result;
    expect(result.steps.s).toBe("42");
    expect(http.calls).toEqual([{ tool: "add", input: { a: 20, b: 22 } }]);
    expect(http.headers.every((h) => h.authorization === "Bearer sk-secret-1")).toBe(true);
    const [node] = toolCalls(result.trace);
    expect(node).toMatchObject({ status: "done", mcp: { server: new URL(http.url).origin + "/mcp", tool: "add" } });
    expect(JSON.stringify(result.trace)).not.toContain("sk-secret-1");
  });

  it("deny never reaches the server", async () => {
    const model = scriptedModel([{ toolCalls: [{ toolName: "note_save", input: { text: "x" }, toolCallId: "n1" }] }, "ok"]);
    const run = start(
      <Agent model={model}>
        <McpTools server={http.url} needsApproval />
        <Step id="s" prompt="go" />
      </Agent>,
    );
    await firstRequest(run);
    run.decide(run.requests[0]!.id, { approved: false });
    await run.result;
    expect(http.calls).toEqual([]);
  });

  it("a URL nothing listens on fails the step naming the server", async () => {
    const closed = await startHttpFixture();
    await closed.close();
    const error = (await start(
      <Agent model={scriptedModel(["x"])}>
        <McpTools name="offline" server={closed.url} />
        <Step id="s" prompt="go" />
      </Agent>,
    ).result.catch((e: unknown) => e)) as RunError;
    expect(McpConnectionError.isInstance(error.cause)).toBe(true);
    expect((error.cause as Error).message).toMatch(/^MCP server "offline" could not be connected/);
  });
});

describe("mcpConnections()", () => {
  it("keeps one client across runs until close(), and adds its `tools` to every step", async () => {
    const { server, log } = stdioServer();
    const mcp = mcpConnections({ tools: [{ server, include: ["echo"] }] });
    const script = () => scriptedModel([{ toolCalls: [{ toolName: "echo", input: { text: "hi" }, toolCallId: "k" }] }, "done"]);
    try {
      await start(<Agent model={script()}><Step id="a" prompt="1" /></Agent>, { mcp }).result;
      await mcp.run(() => start(<Agent model={script()}><Step id="b" prompt="2" /></Agent>).result);
      const entries = log();
      expect(entries.filter((e) => e.event === "start")).toHaveLength(1);
      expect(entries.filter((e) => e.event === "call")).toHaveLength(2);
      const [pid] = await mcp.pids();
      expect(pid).toBe(entries[0]!.pid);
      expect(alive(pid!)).toBe(true);
    } finally {
      await mcp.close();
    }
    expect(alive(log()[0]!.pid!)).toBe(false);
  });

  it("nested run(): the tools of both apply; an explicit `mcp` option wins over those in effect", async () => {
    const outer = mcpConnections({ tools: [{ server: http.url, prefix: "outer_", include: ["echo"] }] });
    const inner = mcpConnections({ tools: [{ server: http.url, prefix: "inner_", include: ["add"] }] });
    const offered: string[][] = [];
    const model = () =>
      scriptedModel((call) => {
        offered.push((call.options.tools ?? []).map((t) => t.name).sort());
        return "ok";
      });
    try {
      await outer.run(() => inner.run(() => start(<Agent model={model()}><Step id="s" prompt="go" /></Agent>).result));
      await outer.run(() => start(<Agent model={model()}><Step id="s" prompt="go" /></Agent>, { mcp: inner }).result);
      await start(<Agent model={model()}><Step id="s" prompt="go" /></Agent>).result;
    } finally {
      await Promise.all([outer.close(), inner.close()]);
    }
    expect(offered).toEqual([["inner_add", "outer_echo"], ["inner_add"], []]);
  });

  it("an existing @ai-sdk/mcp client is used and never closed by the run", async () => {
    const { createMCPClient } = await import("@ai-sdk/mcp");
    const client = await createMCPClient({ transport: { type: "http", url: http.url } });
    try {
      for (const id of ["r1", "r2"]) {
        const model = scriptedModel([{ toolCalls: [{ toolName: "echo", input: { text: id }, toolCallId: id }] }, "ok"]);
        const result = await start(<Agent model={model}><McpTools server={client} /><Step id="s" prompt="go" /></Agent>).result;
        expect(toolCalls(result.trace)[0]).toMatchObject({ status: "done", mcp: { server: "june-fixture", tool: "echo" } });
      }
      expect(http.calls.map((c) => c.input)).toEqual([{ text: "r1" }, { text: "r2" }]);
    } finally {
      await client.close();
    }
  });
});
