import type { LanguageModel } from "ai";
import { agentResponder } from "../chat/responders/agent/agent-responder.js";
import { findStep } from "../chat/responders/agent/run-metadata.js";
import type { Responder } from "../chat/types.js";
import { createElement } from "../jsx/element.js";
import { mcpConnections, type McpConnections } from "../mcp/connections.js";
import type { McpToolsOptions } from "../mcp/mcp-tools.js";
import { Agent, Step } from "../runtime/components.js";
import { flagValues } from "./args.js";
import { CliUsageError } from "./errors.js";
import type { CliIO } from "./io.js";

/** Every `--mcp VALUE` and `--mcp=VALUE` before `--`, in order (citty keeps only the last of a repeated flag). */
export function mcpFlagValues(rawArgs: readonly string[]): string[] {
  return flagValues(rawArgs, "mcp");
}

/**
 * One `--mcp` value as `<McpTools>` options: an `http://` or `https://` URL is a Streamable HTTP server; anything
 * else is a command line (words split on spaces, quotes group) started as a stdio server, named by that line,
 * with `env` (the CLI's environment, as if the command were run from the same shell). Every call of a CLI
 * server asks for approval (answered on stderr, or by `--yes` / `--deny`).
 */
export function parseMcpFlag(value: string, env: Readonly<Record<string, string | undefined>> = {}): McpToolsOptions {
  const text = value.trim();
  if (text === "") throw new CliUsageError('--mcp needs a server: a command ("npx some-server") or a URL (https://...)');
  if (/^https?:\/\//i.test(text)) {
    try {
      new URL(text);
    } catch {
      throw new CliUsageError(`--mcp "${text}" is not a valid URL`);
    }
    return { server: text, needsApproval: true };
  }
  const [command, ...args] = splitWords(text);
  const defined = Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined));
  return { server: { command: command!, args, env: defined }, name: text, needsApproval: true };
}

/** Splits a command line into words: spaces separate, single or double quotes group, a backslash escapes. */
export function splitWords(line: string): string[] {
  const words: string[] = [];
  let word = "";
  let quote: string | undefined;
  let any = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === quote) quote = undefined;
      else if (c === "\\" && quote === '"' && i + 1 < line.length) word += line[++i];
      else word += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      any = true;
    } else if (c === "\\" && i + 1 < line.length) {
      word += line[++i];
      any = true;
    } else if (/\s/.test(c)) {
      if (word !== "" || any) words.push(word);
      word = "";
      any = false;
    } else word += c;
  }
  if (quote) throw new CliUsageError(`--mcp "${line}": a quote is not closed`);
  if (word !== "" || any) words.push(word);
  return words;
}

/**
 * Runs a command with the servers its `--mcp` flags name in effect (one client each for the command's life,
 * their tools added to every model step of every run), and closes them (a stdio server's process ends) when
 * it returns. With no `--mcp`, just runs it.
 */
export async function withMcpFlags(
  io: CliIO,
  rawArgs: readonly string[],
  run: (mcp: McpConnections | undefined) => Promise<number>,
): Promise<number> {
  const values = mcpFlagValues(rawArgs);
  if (values.length === 0) return run(undefined);
  const mcp = mcpConnections({ tools: values.map((value) => parseMcpFlag(value, io.env)) });
  try {
    return await mcp.run(() => run(mcp));
  } finally {
    await mcp.close();
  }
}

/**
 * What `june chat --model P:ID --mcp ...` talks to: the model in a one-step workflow, so it can call the MCP
 * servers' tools (a plain model chat calls none). The reply is everything the step wrote, sent whole when the
 * turn ends: a step that calls tools is not streamed (a streamed step calls none of the workflow's tools).
 */
export function toolUsingModelResponder(model: LanguageModel): Responder {
  return agentResponder({
    id: "june-cli-mcp",
    render: ({ messages, input }) =>
      createElement(Agent, {
        model,
        children: createElement(Step, { id: "reply", prompt: [...messages, { role: "user", content: input }] }),
      }),
    reply: (result) => findStep(result.trace, "reply")?.partialText ?? String(result.steps.reply ?? ""),
  });
}
