import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { Agent, McpTools, Step, mcpConnections, type McpStdioServer } from "june";
import { agentResponder, createChat, projectChatTrace, type ChatTraceRow } from "june/chat";
import { scriptedModel } from "june/testing";

const STDIO_SERVER = fileURLToPath(new URL("./__fixtures__/stdio-server.mjs", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "june-mcp-chat-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function fixture(name: string): { server: McpStdioServer; log: () => { event: string; pid?: number }[] } {
  const file = join(dir, `${name}.jsonl`);
  return {
    server: { command: process.execPath, args: [STDIO_SERVER], env: { MCP_FIXTURE_LOG: file } },
    log: () => (existsSync(file) ? readFileSync(file, "utf8").trim().split("\n").map((l) => JSON.parse(l)) : []),
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

function chatWith(server: McpStdioServer, mcp?: ReturnType<typeof mcpConnections>) {
  const model = scriptedModel((call) =>
    call.options.prompt.at(-1)?.role === "tool" ? "noted" : { toolCalls: [{ toolName: "note_save", input: { text: `turn ${call.index}` } }] },
  );
  return createChat({
    responder: agentResponder({
      render: ({ messages, input }) => (
        <Agent model={model}>
          <McpTools name="notes" server={server} />
          <Step id="reply" prompt={[...messages, { role: "user", content: input }]} />
        </Agent>
      ),
      reply: (result) => String(result.steps.reply),
    }),
    ...(mcp ? { mcp } : {}),
  });
}

describe("MCP in a chat", () => {
  it("by default each turn connects its own server and closes it when the turn ends", async () => {
    const { server, log } = fixture("per-turn");
    const session = await chatWith(server).createSession();
    expect((await session.send("one").result).text).toBe("noted");
    expect((await session.send("two").result).text).toBe("noted");
    const starts = log().filter((e) => e.event === "start");
    expect(starts).toHaveLength(2);
    for (const start of starts) expect(alive(start.pid!)).toBe(false);
  });

  it("createChat({ mcp }) keeps one client for the chat's life, until mcp.close()", async () => {
    const { server, log } = fixture("per-chat");
    const mcp = mcpConnections();
    const session = await chatWith(server, mcp).createSession();
    await session.send("one").result;
    const turn = session.send("two");
    await turn.result;
    const starts = log().filter((e) => e.event === "start");
    expect(starts).toHaveLength(1);
    expect(log().filter((e) => e.event === "call")).toHaveLength(2);
    expect(alive(starts[0]!.pid!)).toBe(true);
    await mcp.close();
    expect(alive(starts[0]!.pid!)).toBe(false);
  });

  it("a turn's trace rows name the MCP server of a tool call", async () => {
    const { server } = fixture("rows");
    const turn = (await chatWith(server).createSession()).send("one");
    let last: Parameters<typeof projectChatTrace>[0] | undefined;
    for await (const event of turn) if (event.type === "run-update") last = event.tree;
    await turn.result;
    const flat = (rows: readonly ChatTraceRow[]): ChatTraceRow[] => rows.flatMap((row) => [row, ...flat(row.children)]);
    const tool = flat(projectChatTrace(last!)).find((row) => row.kind === "tool");
    expect(tool).toMatchObject({ kind: "tool", toolName: "note_save", server: "notes", status: "done" });
  });

  it("refuses ambient MCP tools on a model chat, which calls no tools", () => {
    const mcp = mcpConnections({ tools: [{ server: "http://127.0.0.1:1/mcp" }] });
    expect(() => createChat({ model: scriptedModel([]), mcp })).toThrow(/a model chat calls no tools/);
  });
});
