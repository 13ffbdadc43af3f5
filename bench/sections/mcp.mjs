/**
 * 6. MCP tools: what an MCP tool call costs a run next to an in-process `<Tool>`. Each run is a one-step
 * workflow whose scripted model calls `echo` once and then answers. Variants: (a) `<Tool>` (the floor); (b)
 * `<McpTools>` over stdio with the client kept open (`mcpConnections()`); (c) the same over Streamable HTTP on
 * 127.0.0.1; (d) stdio with a client per run (spawn, initialize, list, call, close: what a run pays by default).
 * CPU is this process's only (the server's own CPU is not counted). Variants interleaved, medians over rounds.
 */
import { createServer } from "node:http";
import { fileURLToPath } from "node:url";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { jsonSchema, tool } from "ai";
import { Agent, McpTools, Step, Tool, mcpConnections, start } from "june";
import { jsx, jsxs } from "june/jsx-runtime";
import { scriptedModel } from "june/testing";
import { section } from "../lib/section.mjs";
import { interleave, measure, round } from "../lib/stats.mjs";

const FIXTURES = new URL("../../packages/june/src/mcp/__fixtures__/", import.meta.url);
const { createFixtureServer } = await import(new URL("fixture-server.mjs", FIXTURES).href);
const stdio = { command: process.execPath, args: [fileURLToPath(new URL("stdio-server.mjs", FIXTURES))], stderr: "ignore" };

export const VARIANTS = [
  { key: "tool", label: "(a) <Tool>, in process" },
  { key: "stdio", label: "(b) <McpTools> stdio, client kept" },
  { key: "http", label: "(c) <McpTools> HTTP, client kept" },
  { key: "stdio-per-run", label: "(d) <McpTools> stdio, client per run" },
];

function model() {
  return scriptedModel((call) =>
    call.options.prompt.at(-1)?.role === "tool" ? "done" : { toolCalls: [{ toolName: "echo", input: { text: "hello" } }] },
  );
}

const echo = tool({
  description: "Repeats the text",
  inputSchema: jsonSchema({ type: "object", properties: { text: { type: "string" } }, required: ["text"] }),
  execute: async ({ text }) => ({ content: [{ type: "text", text }] }),
});

function workflow(kind, server) {
  const tools = kind === "tool" ? jsx(Tool, { name: "echo", value: echo }) : jsx(McpTools, { server, include: ["echo"] });
  return jsxs(Agent, { model: model(), children: [tools, jsx(Step, { id: "s", prompt: "go" })] });
}

async function startHttp() {
  const server = createServer(async (req, res) => {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const mcp = createFixtureServer();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on("close", () => {
      void transport.close();
      void mcp.close();
    });
    await mcp.connect(transport);
    await transport.handleRequest(req, res, chunks.length ? JSON.parse(Buffer.concat(chunks).toString("utf8")) : undefined);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${server.address().port}/mcp`, close: () => new Promise((r) => (server.closeAllConnections(), server.close(r))) };
}

await section("mcp", async ({ quick, log }) => {
  const rounds = quick ? 3 : 9;
  const runsPerRound = quick ? 5 : 20;
  const perRunRuns = quick ? 2 : 4;
  const http = await startHttp();
  const kept = mcpConnections();
  const variant = (key, runs, options = {}, server) => ({
    name: key,
    async round() {
      const m = await measure(async () => {
        for (let i = 0; i < runs; i++) {
          const result = await start(workflow(key, server), options).result;
          if (result.steps.s !== "done") throw new Error(`bench mcp: ${key} answered ${String(result.steps.s)}`);
        }
      });
      return { ...m, items: runs };
    },
  });
  const variants = [
    variant("tool", runsPerRound),
    variant("stdio", runsPerRound, { mcp: kept }, stdio),
    variant("http", runsPerRound, { mcp: kept }, http.url),
    variant("stdio-per-run", perRunRuns, {}, stdio),
  ];
  log(`${rounds} rounds of ${runsPerRound} runs (${perRunRuns} for a client per run) per variant (+1 warm-up round)`);
  try {
    const results = await interleave(variants, { rounds, warmupRounds: 1 });
    const floor = results.tool;
    return {
      rounds,
      runsPerRound,
      rows: VARIANTS.map(({ key, label }) => ({
        variant: key,
        label,
        cpuMs: round(results[key].cpuMs),
        wallMs: round(results[key].wallMs),
        wallRatio: round(results[key].wallMs / floor.wallMs),
        wallOverFloorMs: round(results[key].wallMs - floor.wallMs),
      })),
    };
  } finally {
    await kept.close();
    await http.close();
  }
});
