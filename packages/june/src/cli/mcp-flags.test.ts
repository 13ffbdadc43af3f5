import { describe, expect, it } from "vitest";
import { CliUsageError } from "./errors.js";
import { mcpFlagValues, parseMcpFlag, splitWords } from "./mcp-flags.js";
import { createColors } from "./colors.js";
import { renderApprovalPrompt } from "./render.js";

describe("--mcp", () => {
  it("collects every --mcp value before --", () => {
    expect(mcpFlagValues(["--mcp", "npx a", "x.tsx", "--mcp=https://h.test/mcp", "--yes", "--", "--mcp", "no"])).toEqual([
      "npx a",
      "https://h.test/mcp",
    ]);
  });

  it("a URL is a Streamable HTTP server; anything else a command line, named by it, with the CLI's environment", () => {
    expect(parseMcpFlag("https://mcp.example.test/mcp")).toEqual({ server: "https://mcp.example.test/mcp", needsApproval: true });
    expect(parseMcpFlag(` npx -y "@scope/server" --root 'my dir' `, { TOKEN: "t", UNSET: undefined })).toEqual({
      server: { command: "npx", args: ["-y", "@scope/server", "--root", "my dir"], env: { TOKEN: "t" } },
      name: `npx -y "@scope/server" --root 'my dir'`,
      needsApproval: true,
    });
  });

  it("splits words like a shell: quotes group, a backslash escapes, empty quotes are a word", () => {
    expect(splitWords(`a "b c" d\\ e '' "x\\"y"`)).toEqual(["a", "b c", "d e", "", 'x"y']);
  });

  it("an approval prompt names the MCP server of the tool", () => {
    const prompt = renderApprovalPrompt({ toolName: "fs_read", input: { path: "a" }, mcp: { server: "npx files", tool: "read" } }, createColors(false), (value) => value);
    expect(prompt.header).toContain("fs_read (MCP server npx files) wants to run with");
  });

  it("an empty value, a bad URL or an open quote is a usage error", () => {
    expect(() => parseMcpFlag("  ")).toThrow(CliUsageError);
    expect(() => parseMcpFlag("http://[bad")).toThrow(/not a valid URL/);
    expect(() => parseMcpFlag(`node "server.mjs`)).toThrow(/a quote is not closed/);
  });
});
