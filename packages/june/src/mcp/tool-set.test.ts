import { jsonSchema, tool, type Tool } from "ai";
import { describe, expect, it } from "vitest";
import { McpToolError } from "./errors.js";
import { mcpToolSet } from "./tool-set.js";

const listed = (): Record<string, Tool<any, any>> => ({
  read: tool({ description: "Reads", inputSchema: jsonSchema({ type: "object" }), execute: async () => ({ content: [{ type: "text", text: "ok" }] }) }),
  write: tool({ description: "Writes", inputSchema: jsonSchema({ type: "object" }), execute: async () => ({ isError: true, content: [{ type: "text", text: "read-only disk" }, { type: "text", text: "try later" }] }) }),
  wipe: tool({ description: "Wipes", inputSchema: jsonSchema({ type: "object" }), execute: async () => ({ isError: true, content: [] }) }),
});
const call = { toolCallId: "c", messages: [] } as never;
/** A connection that runs each call as it is, and masks nothing of its own. */
const direct = { call: (_tool: string, run: (signal: AbortSignal) => Promise<unknown>) => run(new AbortController().signal), scrub: (text: string) => text };

describe("mcpToolSet", () => {
  it("a tool's own needsApproval wins over the component's policy; a list names tools on the server", async () => {
    const set = mcpToolSet({ server: "x", prefix: "fs_", needsApproval: ["write"], tools: { write: { needsApproval: false }, wipe: { needsApproval: true } } }, "disk", listed(), direct);
    expect(Object.keys(set.tools).sort()).toEqual(["fs_read", "fs_wipe", "fs_write"]);
    expect(set.tools.fs_read!.needsApproval).toBeUndefined();
    expect(set.tools.fs_write!.needsApproval).toBe(false);
    expect(set.tools.fs_wipe!.needsApproval).toBe(true);
    expect(set.origins.get("fs_wipe")).toEqual({ server: "disk", tool: "wipe" });
  });

  it("a policy function gets the tool's info and the input", async () => {
    const seen: unknown[] = [];
    const set = mcpToolSet({ server: "x", needsApproval: (info, input) => (seen.push([info.name, info.toolName, info.server, input]), info.name === "write") }, "disk", listed(), direct);
    const ask = set.tools.write!.needsApproval as (input: unknown, options: unknown) => boolean;
    expect(await ask({ path: "/" }, call)).toBe(true);
    expect(seen).toEqual([["write", "write", "disk", { path: "/" }]]);
  });

  it("an isError result throws an McpToolError with the result's text (or a default message)", async () => {
    const set = mcpToolSet({ server: "x" }, "disk", listed(), direct);
    await expect(set.tools.read!.execute!({}, call)).resolves.toEqual({ content: [{ type: "text", text: "ok" }] });
    const error = await Promise.resolve(set.tools.write!.execute!({}, call)).catch((e: unknown) => e);
    expect(McpToolError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ message: "read-only disk\ntry later", server: "disk", tool: "write" });
    await expect(Promise.resolve(set.tools.wipe!.execute!({}, call))).rejects.toThrow('The MCP tool "wipe" reported an error');
  });
});
