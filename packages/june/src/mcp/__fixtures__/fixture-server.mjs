// A small MCP server made with the official SDK, for June's tests and examples/mcp.tsx. Its tools:
// `add`, `echo`, `fail` (answers with an error result), `slow` (waits), `note_save` / `note_list` (a notepad in
// memory). `onCall({ tool, input })` hears every tool call before it runs.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";

/** @param {{ onCall?: (call: { tool: string; input: unknown }) => void; name?: string }} [options] */
export function createFixtureServer(options = {}) {
  const server = new McpServer({ name: options.name ?? "june-fixture", version: "1.0.0" });
  const heard = (tool, input) => options.onCall?.({ tool, input });
  const text = (value) => ({ content: [{ type: "text", text: String(value) }] });
  const notes = [];

  server.registerTool(
    "add",
    { description: "Adds two numbers", inputSchema: { a: z.number(), b: z.number() } },
    async (input) => (heard("add", input), text(input.a + input.b)),
  );
  server.registerTool(
    "echo",
    { description: "Repeats the text", inputSchema: { text: z.string() } },
    async (input) => (heard("echo", input), text(input.text)),
  );
  server.registerTool(
    "fail",
    { description: "Always fails with the message", inputSchema: { message: z.string() } },
    async (input) => (heard("fail", input), { isError: true, content: [{ type: "text", text: input.message }] }),
  );
  server.registerTool(
    "slow",
    { description: "Waits ms milliseconds", inputSchema: { ms: z.number() } },
    async (input) => {
      heard("slow", input);
      await new Promise((resolve) => setTimeout(resolve, input.ms));
      return text(`waited ${input.ms} ms`);
    },
  );
  server.registerTool(
    "note_save",
    { description: "Saves a note", inputSchema: { text: z.string() } },
    async (input) => {
      heard("note_save", input);
      notes.push(input.text);
      return text(`saved note ${notes.length}`);
    },
  );
  server.registerTool(
    "note_list",
    { description: "Lists the saved notes", inputSchema: {} },
    async (input) => (heard("note_list", input), text(notes.length === 0 ? "no notes" : notes.map((n, i) => `${i + 1}. ${n}`).join("\n"))),
  );
  return server;
}
