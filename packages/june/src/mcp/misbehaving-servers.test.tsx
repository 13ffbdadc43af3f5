/**
 * Real MCP servers that misbehave (mcp/__fixtures__/misbehaving-*.mjs), over stdio and Streamable HTTP: requests
 * that never get an answer, answers June cannot read, results too large, and servers that echo the credentials
 * they were given. Every wait is bounded by a small `timeout`.
 */
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Agent, McpConnectionError, McpTools, RenderError, RunError, Step, start, type McpServerSpec, type RunResult, type ToolCallNode, type TraceNode } from "june";
import { scriptedModel, type ScriptCallInfo } from "june/testing";
import { getErrorMessage } from "@ai-sdk/provider";
import { startHttpFixture, type HttpFixture } from "./__fixtures__/http-server.js";
import { startMisbehavingHttpServer, type MisbehavingHttpServer } from "./__fixtures__/misbehaving-http-server.js";

/** A tool error's text as the model is given it: the AI SDK's own wording of an error (7 puts its name in front). */
const toolErrorText = (message: string): string => getErrorMessage(Object.assign(new Error(message), { name: "McpToolError" }));

const SERVER = fileURLToPath(new URL("./__fixtures__/misbehaving-stdio-server.mjs", import.meta.url));
const TIMEOUT = 300;

function stdio(mode: string, env: Record<string, string> = {}): McpServerSpec {
  return { command: process.execPath, args: [SERVER], env: { MCP_MODE: mode, ...env } };
}

function toolCalls(tree: TraceNode): ToolCallNode[] {
  const found: ToolCallNode[] = tree.kind === "tool-call" ? [tree] : [];
  for (const child of tree.children) found.push(...toolCalls(child));
  return found;
}

/** What the model was sent as the tool's result. */
function lastToolResult(call: ScriptCallInfo): unknown {
  const tool = [...call.options.prompt].reverse().find((m) => m.role === "tool");
  return (tool?.content.find((p) => p.type === "tool-result") as { output?: unknown } | undefined)?.output;
}

/** Runs one step whose model calls `work` once, then answers; returns the result and what the model saw. */
async function callWork(server: McpServerSpec, props: { timeout?: number; maxResultBytes?: number } = {}): Promise<{ result: RunResult; seen: unknown }> {
  let seen: unknown;
  const model = scriptedModel((call) => {
    if (call.index === 0) return { toolCalls: [{ toolName: "work", input: {}, toolCallId: "w1" }] };
    seen = lastToolResult(call);
    return "went on";
  });
  const result = await start(
    <Agent model={model}>
      <McpTools name="bad" server={server} timeout={TIMEOUT} {...props} />
      <Step id="s" prompt="go" />
    </Agent>,
  ).result;
  return { result, seen };
}

/** Runs a step that fails to get its tools; returns the McpConnectionError and the whole RunError as JSON. */
async function failToList(server: McpServerSpec, props: { timeout?: number } = {}): Promise<{ error: McpConnectionError; json: string }> {
  const run = start(
    <Agent model={scriptedModel(["never"])}>
      <McpTools name="bad" server={server} timeout={TIMEOUT} {...props} />
      <Step id="s" prompt="go" />
    </Agent>,
  );
  const error = (await run.result.catch((e: unknown) => e)) as RunError;
  expect(RunError.isInstance(error)).toBe(true);
  expect(McpConnectionError.isInstance(error.cause)).toBe(true);
  const cause = error.cause as McpConnectionError;
  const chain: unknown[] = [];
  for (let e: unknown = cause; e instanceof Error && chain.length < 5; e = e.cause) chain.push({ name: e.name, message: e.message, stack: e.stack });
  return { error: cause, json: JSON.stringify([error.result.trace, chain, String(error)]) };
}

let http: MisbehavingHttpServer;
let fixture: HttpFixture;
beforeAll(async () => {
  http = await startMisbehavingHttpServer({ bytes: 200_000 });
  fixture = await startHttpFixture();
});
afterAll(async () => {
  await Promise.all([http.close(), fixture.close()]);
});

describe("a request that gets no answer June can read", () => {
  it("tools/list that hangs (stdio) fails the step with an McpConnectionError that says it timed out", async () => {
    const { error } = await failToList(stdio("hang-list"));
    expect(error.server).toBe("bad");
    expect(error.message).toBe('MCP server "bad" could not list its tools: it did not answer tools/list within 300 ms (timeout)');
  });

  it.each(["", "sse/"])("tools/list that hangs (Streamable HTTP %s) fails the step the same way", async (sse) => {
    const { error } = await failToList(`${http.origin}/${sse}hang-list/mcp`);
    expect(error.message).toBe('MCP server "bad" could not list its tools: it did not answer tools/list within 300 ms (timeout)');
  });

  it.each(["hang-call", "null", "wrong-id", "garbage"])("a call answered %s (stdio) is a tool error the model sees; the step goes on", async (mode) => {
    const { result, seen } = await callWork(stdio(mode));
    expect(result.steps.s).toBe("went on");
    expect(seen).toEqual({ type: "error-text", value: toolErrorText(`The MCP tool "work" of server "bad" did not answer within 300 ms (timeout)`) });
    expect(toolCalls(result.trace)[0]).toMatchObject({ status: "error", error: { name: "McpToolError" }, mcp: { server: "bad", tool: "work" } });
  });

  it.each(["hang-call", "sse/hang-call", "sse/wrong-id"])("a call answered %s (Streamable HTTP) is a tool error the model sees", async (mode) => {
    const { result, seen } = await callWork(`${http.origin}/${mode}/mcp`);
    expect(result.steps.s).toBe("went on");
    expect(seen).toEqual({ type: "error-text", value: toolErrorText(`The MCP tool "work" of server "bad" did not answer within 300 ms (timeout)`) });
  });

  it("a call answered under another id (Streamable HTTP, JSON) is a tool error at once", async () => {
    const { result, seen } = await callWork(`${http.origin}/wrong-id/mcp`);
    expect(result.steps.s).toBe("went on");
    expect(seen).toMatchObject({ type: "error-text", value: expect.stringMatching(/unknown message ID/) });
    expect(toolCalls(result.trace)[0]).toMatchObject({ status: "error", error: { name: "McpToolError" } });
  });

  it("`timeout` must be a positive number of milliseconds", () => {
    expect(() => start(<Agent model={scriptedModel([])}><McpTools server={stdio("")} timeout={0} /><Step id="s" prompt="x" /></Agent>)).toThrow(RenderError);
    expect(() => start(<Agent model={scriptedModel([])}><McpTools server={stdio("")} maxResultBytes={-1} /><Step id="s" prompt="x" /></Agent>)).toThrow(/maxResultBytes/);
  });
});

describe("a result larger than maxResultBytes", () => {
  const tooLarge = `The MCP tool "work" of server "bad" answered more than 100000 bytes (maxResultBytes); its result was dropped`;

  it("over stdio is a tool error that says so (not a closed connection); the step goes on", async () => {
    const { result, seen } = await callWork(stdio("huge", { MCP_BYTES: "200000" }), { maxResultBytes: 100_000 });
    expect(result.steps.s).toBe("went on");
    expect(seen).toEqual({ type: "error-text", value: toolErrorText(tooLarge) });
    expect(JSON.stringify(result.trace).length).toBeLessThan(100_000);
  });

  it.each(["", "sse/"])("over Streamable HTTP %s is the same tool error, and never reaches the trace", async (sse) => {
    const { result, seen } = await callWork(`${http.origin}/${sse}huge/mcp`, { maxResultBytes: 100_000 });
    expect(seen).toEqual({ type: "error-text", value: toolErrorText(tooLarge) });
    expect(JSON.stringify(result.trace).length).toBeLessThan(100_000);
  });

  it("has a default: a 5 MB result over stdio is refused without any option", async () => {
    const { seen } = await callWork(stdio("huge", { MCP_BYTES: String(5 * 1024 * 1024) }), { timeout: 30_000 });
    expect(seen).toMatchObject({ type: "error-text", value: expect.stringMatching(/answered more than 4194304 bytes \(maxResultBytes\)/) });
  });

  it("a result under the bound arrives whole", async () => {
    const { seen } = await callWork(stdio("huge", { MCP_BYTES: "50000" }), { maxResultBytes: 100_000 });
    expect(JSON.stringify(seen)).toContain("x".repeat(50_000));
  });
});

describe("credentials a server echoes", () => {
  const TOKEN = "tok-9f8e7d6c5b4a39281706";
  const QUERY = "qs-1a2b3c4d5e6f7a8b9c0d";

  it.each(["echo", "echo500"])("an Authorization header and a URL's access_token in a %s answer never reach the error or the trace", async (mode) => {
    const { error, json } = await failToList({ url: `${http.origin}/${mode}/mcp?access_token=${QUERY}`, headers: { Authorization: `Bearer ${TOKEN}` } });
    expect(error.message).toMatch(/^MCP server "bad" could not be connected: .*HTTP (401|500)\b/);
    expect(json).not.toContain(TOKEN);
    expect(json).not.toContain(QUERY);
  });

  it("a URL's user:token@ is sent as Basic auth, and never shown", async () => {
    const url = new URL(fixture.url);
    url.username = "ann";
    url.password = TOKEN;
    let seen: unknown;
    const model = scriptedModel((call) => {
      if (call.index === 0) return { toolCalls: [{ toolName: "echo", input: { text: "hi" }, toolCallId: "e1" }] };
      seen = lastToolResult(call);
      return "ok";
    });
    const result = await start(<Agent model={model}><McpTools server={url.href} /><Step id="s" prompt="go" /></Agent>).result;
    expect(JSON.stringify(seen)).toContain("hi");
    expect(fixture.headers.at(-1)!.authorization).toBe(`Basic ${Buffer.from(`ann:${TOKEN}`).toString("base64")}`);
    expect(JSON.stringify(result.trace)).not.toContain(TOKEN);

    const echo = new URL(`${http.origin}/echo/mcp`);
    echo.username = "ann";
    echo.password = TOKEN;
    const { json } = await failToList(echo.href);
    expect(json).not.toContain(TOKEN);
    expect(json).not.toContain(Buffer.from(`ann:${TOKEN}`).toString("base64"));
  });

  it("a stdio server that echoes its token in an error: not in the connection error, the tool error or the trace", async () => {
    const { error, json } = await failToList(stdio("echo", { API_TOKEN: TOKEN }));
    expect(error.message).toMatch(/could not list its tools: unauthorized: \[redacted\]/);
    expect(json).not.toContain(TOKEN);
    const { result, seen } = await callWork(stdio("echo-call", { API_TOKEN: TOKEN }));
    expect(seen).toEqual({ type: "error-text", value: toolErrorText("token [redacted] was refused") });
    expect(JSON.stringify(result.trace)).not.toContain(TOKEN);
  });
});

