import { basename } from "node:path";
import type { MCPClient, MCPTransport } from "@ai-sdk/mcp";
import type { Tool as AITool } from "ai";
import { McpConnectionError } from "./errors.js";
import type { McpHttpServer, McpServerSpec, McpStdioServer } from "./mcp-tools.js";

/** How long a server may take to start and answer `initialize` (an `npx` server may be downloaded first). */
export const MCP_CONNECT_TIMEOUT_MS = 60_000;

/** A server spec, sorted out: its kind, its default name and the key that identifies it among connections. */
export type ServerTarget =
  | { readonly kind: "stdio"; readonly spec: McpStdioServer; readonly label: string; readonly key: string }
  | { readonly kind: "http"; readonly spec: McpHttpServer & { url: URL }; readonly label: string; readonly key: string }
  | { readonly kind: "client"; readonly client: MCPClient; readonly label: string };

/** One open connection: the client, whether June opened it (and so closes it), and its tools once listed. */
export interface McpConnection {
  readonly client: MCPClient;
  readonly owned: boolean;
  /** The server's tools as AI SDK tools, listed once per connection. */
  tools(): Promise<Record<string, AITool<any, any>>>;
  /** Set when the connection ended on its own (the server exited): it is not reused. */
  readonly closed: boolean;
  /** The stdio server's process id, while it runs. */
  readonly pid: number | undefined;
}

/** What is wrong with `server`, or `undefined` when it is a server spec June can use. */
export function serverProblem(server: unknown): string | undefined {
  if (typeof server === "string" || server instanceof URL) {
    const url = parseUrl(server);
    if (!url) return `\`server\` "${String(server)}" is not a URL (give { command, args } for a stdio server)`;
    if (url.protocol !== "http:" && url.protocol !== "https:") return `\`server\` URL must be http: or https:, got ${url.protocol}`;
    return undefined;
  }
  if (typeof server !== "object" || server === null) {
    return "`server` must be { command, args, env }, a Streamable HTTP URL, { url, headers } or an @ai-sdk/mcp client";
  }
  if (isClient(server)) return undefined;
  const record = server as Record<string, unknown>;
  if ("command" in record) {
    if (typeof record.command !== "string" || record.command === "") return "`server.command` must be a non-empty string";
    if (record.args !== undefined && !(Array.isArray(record.args) && record.args.every((a) => typeof a === "string"))) {
      return "`server.args` must be an array of strings";
    }
    if (record.env !== undefined && !isStringRecord(record.env)) return "`server.env` must be an object of strings";
    if (record.cwd !== undefined && typeof record.cwd !== "string") return "`server.cwd` must be a string";
    if (record.stderr !== undefined && !["inherit", "ignore"].includes(record.stderr as string)) {
      return '`server.stderr` must be "inherit" or "ignore"';
    }
    return undefined;
  }
  if ("url" in record) {
    if (record.headers !== undefined && !isStringRecord(record.headers)) return "`server.headers` must be an object of strings";
    return serverProblem(record.url);
  }
  return "`server` must be { command, args, env }, a Streamable HTTP URL, { url, headers } or an @ai-sdk/mcp client";
}

/** Sorts out a (valid) server spec. The default label never holds `env`, headers, a URL's query or credentials. */
export function serverTarget(server: McpServerSpec): ServerTarget {
  if (isClient(server)) {
    const name = (server as MCPClient).serverInfo?.name;
    return { kind: "client", client: server as MCPClient, label: name ? name : "MCP client" };
  }
  if (typeof server === "string" || server instanceof URL || !("command" in server)) {
    const given: McpHttpServer = typeof server === "string" || server instanceof URL ? { url: server } : (server as McpHttpServer);
    const url = parseUrl(given.url)!;
    const headers = given.headers ?? {};
    return {
      kind: "http",
      spec: { url, headers },
      label: `${url.origin}${url.pathname}`,
      key: JSON.stringify(["http", url.href, Object.entries(headers).sort()]),
    };
  }
  const spec = server;
  const args = spec.args ?? [];
  return {
    kind: "stdio",
    spec,
    label: [basename(spec.command), ...args].join(" "),
    key: JSON.stringify(["stdio", spec.command, args, Object.entries(spec.env ?? {}).sort(), spec.cwd ?? "", spec.stderr ?? "inherit"]),
  };
}

/**
 * Opens a connection through the official MCP SDK's transports and `@ai-sdk/mcp`'s client (both loaded on first
 * use, so a workflow without MCP never loads them). `signal` aborts the start (the stdio process is stopped).
 *
 * @throws McpConnectionError naming the server.
 */
export async function openConnection(target: ServerTarget, name: string, signal: AbortSignal): Promise<McpConnection> {
  if (target.kind === "client") return connection(target.client, false, undefined, name);
  let transport: (MCPTransport & { pid?: number | null }) | undefined;
  try {
    transport = closingOnce(await makeTransport(target));
    const { createMCPClient } = await import("@ai-sdk/mcp");
    const client = await createMCPClient({
      transport,
      clientName: "june",
      initializationOptions: { signal, timeout: MCP_CONNECT_TIMEOUT_MS },
      onUncaughtError: () => {},
    });
    return connection(client, true, transport, name);
  } catch (error) {
    // The client closes the transport when it fails to start, but an aborted or timed-out start does not wait
    // for that close: wait here, so a stdio server's process is gone when this rejects.
    await transport?.close().catch(() => {});
    throw new McpConnectionError(`MCP server "${name}" could not be connected: ${messageWithCause(error)}`, { server: name, cause: error });
  }
}

/**
 * Makes every `close()` of a transport return the first call's promise. The stdio transport's first close
 * waits for the process to exit (stdin closed, then SIGTERM, then SIGKILL); a second returns at once.
 */
function closingOnce<T extends MCPTransport>(transport: T): T {
  const close = transport.close.bind(transport);
  let closing: Promise<void> | undefined;
  transport.close = (options) => (closing ??= close(options));
  return transport;
}

async function makeTransport(target: Exclude<ServerTarget, { kind: "client" }>): Promise<MCPTransport & { pid?: number | null }> {
  if (target.kind === "stdio") {
    const { StdioClientTransport } = await import("@modelcontextprotocol/sdk/client/stdio.js");
    const { command, args, env, cwd, stderr } = target.spec;
    return new StdioClientTransport({
      command,
      args: [...(args ?? [])],
      ...(env ? { env: { ...env } } : {}),
      ...(cwd ? { cwd } : {}),
      stderr: stderr ?? "inherit",
    }) as unknown as MCPTransport & { pid: number | null };
  }
  const { StreamableHTTPClientTransport } = await import("@modelcontextprotocol/sdk/client/streamableHttp.js");
  const headers = target.spec.headers ?? {};
  return new StreamableHTTPClientTransport(target.spec.url, {
    requestInit: { headers: { ...headers } },
  }) as unknown as MCPTransport;
}

function connection(client: MCPClient, owned: boolean, transport: (MCPTransport & { pid?: number | null }) | undefined, name: string): McpConnection {
  let closed = false;
  if (transport) {
    // The client owns `onclose`; chain it, so a server that exits is not reused.
    const onclose = transport.onclose;
    transport.onclose = () => {
      closed = true;
      onclose?.call(transport);
    };
  }
  let listed: Promise<Record<string, AITool<any, any>>> | undefined;
  return {
    client,
    owned,
    get closed() {
      return closed;
    },
    get pid() {
      return transport?.pid ?? undefined;
    },
    tools() {
      listed ??= client.tools().then(
        (tools) => tools as unknown as Record<string, AITool<any, any>>,
        (error: unknown) => {
          listed = undefined;
          throw new McpConnectionError(`MCP server "${name}" could not list its tools: ${messageWithCause(error)}`, { server: name, cause: error });
        },
      );
      return listed;
    },
  };
}

function isClient(value: unknown): boolean {
  const v = value as { tools?: unknown; close?: unknown; listTools?: unknown } | null;
  return typeof v === "object" && v !== null && typeof v.tools === "function" && typeof v.close === "function";
}

function isStringRecord(value: unknown): boolean {
  return typeof value === "object" && value !== null && !Array.isArray(value) && Object.values(value).every((v) => typeof v === "string");
}

function parseUrl(value: unknown): URL | undefined {
  if (value instanceof URL) return value;
  if (typeof value !== "string") return undefined;
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

/** An error's message, with its cause's when that adds something (the transport's reason). */
function messageWithCause(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : undefined;
  return cause && !message.includes(cause) ? `${message} (${cause})` : message;
}
