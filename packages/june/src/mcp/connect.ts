import { basename } from "node:path";
import type { MCPClient, MCPTransport } from "@ai-sdk/mcp";
import type { Tool as AITool } from "ai";
import { isCredentialKey, REDACTED, redactText } from "../redaction/redact.js";
import { McpConnectionError, McpToolError } from "./errors.js";
import type { McpHttpServer, McpServerSpec, McpStdioServer } from "./mcp-tools.js";

/** How long a server may take to start and answer `initialize` (an `npx` server may be downloaded first). */
export const MCP_CONNECT_TIMEOUT_MS = 60_000;

/** How long an MCP request (`tools/list`, a tool call) may wait for its answer by default: the MCP SDK's default. */
export const MCP_REQUEST_TIMEOUT_MS = 60_000;

/** The largest message June reads from an MCP server by default (a tool's result, its list of tools): 4 MiB. */
export const MCP_MAX_RESULT_BYTES = 4 * 1024 * 1024;

/** What every target has: its default name, and the credentials it was given (never shown; see `scrub`). */
interface TargetBase {
  readonly label: string;
  /** Header values, a URL's user info and query values, the values of credential-named `env` keys. */
  readonly secrets: readonly string[];
  /** The largest message read from the server (`maxResultBytes`); a client June did not open is checked after. */
  readonly maxResultBytes: number;
}

/** A server spec, sorted out: its kind, its default name and the key that identifies it among connections. */
export type ServerTarget =
  | (TargetBase & { readonly kind: "stdio"; readonly spec: McpStdioServer; readonly key: string })
  | (TargetBase & { readonly kind: "http"; readonly spec: McpHttpServer & { url: URL }; readonly key: string })
  | (TargetBase & { readonly kind: "client"; readonly client: MCPClient });

/** One open connection: the client, whether June opened it (and so closes it), and its tools once listed. */
export interface McpConnection {
  readonly client: MCPClient;
  readonly owned: boolean;
  /** The server's tools as AI SDK tools, listed once per connection; the listing waits `timeout` ms at most. */
  tools(timeout: number): Promise<Record<string, AITool<any, any>>>;
  /**
   * Runs one call to the server (`run`, with the signal to give the MCP client): for `timeout` ms at most, its
   * result no larger than `maxResultBytes`. Fails with an `McpToolError` the model sees, its message masked;
   * rejects as `run` did when `signal` (the run's) aborted.
   */
  call(tool: string, run: (signal: AbortSignal) => Promise<unknown>, options: { signal: AbortSignal | undefined; timeout: number }): Promise<unknown>;
  /** `text` with the credentials the server was given, and anything that looks like one, masked. */
  scrub(text: string): string;
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

/**
 * Sorts out a (valid) server spec. The default label never holds `env`, headers, a URL's query or credentials.
 * A URL's user info (`https://ann:token@host/mcp`) is sent as Basic auth, unless the headers carry an
 * `Authorization` of their own, and is left out of the URL.
 */
export function serverTarget(server: McpServerSpec, maxResultBytes: number = MCP_MAX_RESULT_BYTES): ServerTarget {
  if (isClient(server)) {
    const name = (server as MCPClient).serverInfo?.name;
    return { kind: "client", client: server as MCPClient, label: name ? name : "MCP client", secrets: [], maxResultBytes };
  }
  if (typeof server === "string" || server instanceof URL || !("command" in server)) {
    const given: McpHttpServer = typeof server === "string" || server instanceof URL ? { url: server } : (server as McpHttpServer);
    const url = new URL(parseUrl(given.url)!.href);
    const headers: Record<string, string> = { ...given.headers };
    const secrets = Object.values(headers).flatMap((value) => [value, value.replace(/^\S+\s+/, "")]);
    for (const [, value] of url.searchParams) secrets.push(value, encodeURIComponent(value));
    if (url.username !== "" || url.password !== "") {
      const user = decodeURIComponent(url.username);
      const password = decodeURIComponent(url.password);
      const basic = Buffer.from(`${user}:${password}`).toString("base64");
      secrets.push(user, password, url.username, url.password, basic);
      if (!Object.keys(headers).some((name) => name.toLowerCase() === "authorization")) headers.Authorization = `Basic ${basic}`;
      url.username = url.password = "";
    }
    return {
      kind: "http",
      spec: { url, headers },
      label: `${url.origin}${url.pathname}`,
      key: JSON.stringify(["http", url.href, Object.entries(headers).sort(), maxResultBytes]),
      secrets: credentials(secrets),
      maxResultBytes,
    };
  }
  const spec = server;
  const args = spec.args ?? [];
  return {
    kind: "stdio",
    spec,
    label: [basename(spec.command), ...args].join(" "),
    key: JSON.stringify(["stdio", spec.command, args, Object.entries(spec.env ?? {}).sort(), spec.cwd ?? "", spec.stderr ?? "inherit", maxResultBytes]),
    secrets: credentials(Object.entries(spec.env ?? {}).flatMap(([name, value]) => (isCredentialKey(name) ? [value] : []))),
    maxResultBytes,
  };
}

/** The values worth masking (4 characters or more), longest first, so a value is masked before a part of it. */
function credentials(values: readonly string[]): string[] {
  return [...new Set(values.filter((value) => value.length >= 4))].sort((a, b) => b.length - a.length);
}

/**
 * Opens a connection through the official MCP SDK's transports and `@ai-sdk/mcp`'s client (both loaded on first
 * use, so a workflow without MCP never loads them). `signal` aborts the start (the stdio process is stopped).
 *
 * @throws McpConnectionError naming the server.
 */
export async function openConnection(target: ServerTarget, name: string, signal: AbortSignal): Promise<McpConnection> {
  if (target.kind === "client") return connection(target.client, false, undefined, name, target, new TooLarge());
  let transport: (MCPTransport & { pid?: number | null }) | undefined;
  const tooLarge = new TooLarge();
  try {
    transport = closingOnce(await makeTransport(target, tooLarge));
    const { createMCPClient } = await import("@ai-sdk/mcp");
    const client = await createMCPClient({
      transport,
      clientName: "june",
      initializationOptions: { signal, timeout: MCP_CONNECT_TIMEOUT_MS },
      onUncaughtError: () => {},
    });
    return connection(client, true, transport, name, target, tooLarge);
  } catch (error) {
    // The client closes the transport when it fails to start, but an aborted or timed-out start does not wait
    // for that close: wait here, so a stdio server's process is gone when this rejects.
    await transport?.close().catch(() => {});
    const scrub = (text: string) => scrubText(text, target.secrets);
    throw new McpConnectionError(`MCP server "${name}" could not be connected: ${scrub(messageWithCause(error))}`, { server: name, cause: scrubbedError(error, scrub) });
  }
}

/**
 * Hears that the server sent a message larger than `maxResultBytes` (the transport refused it): the requests
 * waiting then fail at once, saying so.
 */
class TooLarge {
  readonly #waiting = new Set<AbortController>();
  /** Aborts every request waiting now with `TOO_LARGE`. */
  heard(): void {
    for (const controller of this.#waiting) controller.abort(TOO_LARGE);
  }
  /** A controller for one request, aborted when a message is too large while it waits; `done()` forgets it. */
  watch(): { controller: AbortController; done(): void } {
    const controller = new AbortController();
    this.#waiting.add(controller);
    return { controller, done: () => this.#waiting.delete(controller) };
  }
}

/** Why June aborted a request: its `timeout` passed, or the server's answer was too large. */
const TIMED_OUT = Symbol("june.mcp.timedOut");
const TOO_LARGE = Symbol("june.mcp.tooLarge");

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

async function makeTransport(target: Exclude<ServerTarget, { kind: "client" }>, tooLarge: TooLarge): Promise<MCPTransport & { pid?: number | null }> {
  if (target.kind === "stdio") {
    const { StdioClientTransport } = await import("@modelcontextprotocol/sdk/client/stdio.js");
    const { command, args, env, cwd, stderr } = target.spec;
    const transport = new StdioClientTransport({
      command,
      args: [...(args ?? [])],
      ...(env ? { env: { ...env } } : {}),
      ...(cwd ? { cwd } : {}),
      stderr: stderr ?? "inherit",
      // The SDK's own bound on a line from the server: past it, it reports an error and closes the transport.
      maxBufferSize: target.maxResultBytes,
    }) as unknown as MCPTransport & { pid: number | null };
    return hearingTooLarge(transport, tooLarge);
  }
  const { StreamableHTTPClientTransport } = await import("@modelcontextprotocol/sdk/client/streamableHttp.js");
  const headers = target.spec.headers ?? {};
  return new StreamableHTTPClientTransport(target.spec.url, {
    requestInit: { headers: { ...headers } },
    fetch: boundedFetch(target.maxResultBytes, tooLarge),
  }) as unknown as MCPTransport;
}

/**
 * Chains the stdio transport's `onerror` (the client sets it) to hear the SDK's "ReadBuffer exceeded maximum
 * size" (it has no error class of its own): the transport closes next, and without this, a call would fail
 * as "Connection closed".
 */
function hearingTooLarge<T extends MCPTransport>(transport: T, tooLarge: TooLarge): T {
  let onerror: MCPTransport["onerror"];
  Object.defineProperty(transport, "onerror", {
    configurable: true,
    get: () => onerror,
    set: (handler: MCPTransport["onerror"]) => {
      onerror = (error: Error) => {
        if (/exceeded maximum size/i.test(error?.message ?? "")) tooLarge.heard();
        handler?.(error);
      };
    },
  });
  return transport;
}

/** `fetch` whose successful responses' bodies stop, with an error, past `maxBytes` (the Streamable HTTP transport's). */
function boundedFetch(maxBytes: number, tooLarge: TooLarge): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    if (!response.ok || response.body === null) return response;
    let bytes = 0;
    const body = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          bytes += chunk.byteLength;
          if (bytes > maxBytes) {
            tooLarge.heard();
            controller.error(new Error(`the MCP server's answer is larger than ${maxBytes} bytes (maxResultBytes)`));
            return;
          }
          controller.enqueue(chunk);
        },
      }),
    );
    const bounded = new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
    Object.defineProperty(bounded, "url", { value: response.url });
    return bounded;
  };
}

function connection(
  client: MCPClient,
  owned: boolean,
  transport: (MCPTransport & { pid?: number | null }) | undefined,
  name: string,
  target: ServerTarget,
  tooLarge: TooLarge,
): McpConnection {
  let closed = false;
  if (transport) {
    // The client owns `onclose`; chain it, so a server that exits is not reused.
    const onclose = transport.onclose;
    transport.onclose = () => {
      closed = true;
      onclose?.call(transport);
    };
  }
  const scrub = (text: string) => scrubText(text, target.secrets);
  const listFailed = (error: unknown, timeout: number, reason: unknown): McpConnectionError => {
    const why =
      reason === TOO_LARGE
        ? `its list of tools is larger than ${target.maxResultBytes} bytes (maxResultBytes)`
        : reason === TIMED_OUT
          ? `it did not answer tools/list within ${timeout} ms (timeout)`
          : scrub(messageWithCause(error));
    return new McpConnectionError(`MCP server "${name}" could not list its tools: ${why}`, { server: name, cause: scrubbedError(error, scrub) });
  };
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
    scrub,
    tools(timeout) {
      listed ??= (async () => {
        const { controller, done } = tooLarge.watch();
        // The client's own `timeout` bounds each page; this timer marks the listing as timed out, so the error
        // says so without reading the client's message (both fire after `timeout`).
        const timer = setTimeout(() => controller.abort(TIMED_OUT), timeout);
        try {
          // `tools()` takes no request options: list page by page, as it does, with the client's `timeout`.
          const options = { signal: controller.signal, timeout };
          let page = await client.listTools({ options });
          const tools = [...page.tools];
          while (page.nextCursor !== undefined) {
            page = await client.listTools({ params: { cursor: page.nextCursor }, options });
            tools.push(...page.tools);
          }
          return client.toolsFromDefinitions({ ...page, tools }) as unknown as Record<string, AITool<any, any>>;
        } catch (error) {
          listed = undefined;
          throw listFailed(error, timeout, controller.signal.reason ?? (/timed out/i.test(messageWithCause(error)) ? TIMED_OUT : undefined));
        } finally {
          clearTimeout(timer);
          done();
        }
      })();
      return listed;
    },
    async call(tool, run, { signal, timeout }) {
      const { controller, done } = tooLarge.watch();
      const timer = setTimeout(() => controller.abort(TIMED_OUT), timeout);
      const stop = () => controller.abort(signal?.reason);
      signal?.addEventListener("abort", stop, { once: true });
      if (signal?.aborted) stop();
      const failed = (message: string, reason: McpToolError["reason"]) => new McpToolError(`The MCP tool "${tool}" of server "${name}" ${message}`, { server: name, tool, reason });
      try {
        const output = await run(controller.signal);
        if (resultSize(output) > target.maxResultBytes) controller.abort(TOO_LARGE);
        else return output;
      } catch (error) {
        if (signal?.aborted) throw error;
        if (controller.signal.reason !== TIMED_OUT && controller.signal.reason !== TOO_LARGE) {
          if (McpToolError.isInstance(error)) throw error;
          throw new McpToolError(scrub(messageWithCause(error)), { server: name, tool, reason: "failed" });
        }
      } finally {
        clearTimeout(timer);
        signal?.removeEventListener("abort", stop);
        done();
      }
      if (controller.signal.reason === TIMED_OUT) throw failed(`did not answer within ${timeout} ms (timeout)`, "timeout");
      throw failed(`answered more than ${target.maxResultBytes} bytes (maxResultBytes); its result was dropped`, "too-large");
    },
  };
}

/** How large a result is, as JSON text (a client June did not open is bounded here, after the fact). */
function resultSize(output: unknown): number {
  try {
    return JSON.stringify(output)?.length ?? 0;
  } catch {
    return 0;
  }
}

/** `text` with every one of `secrets` masked, then anything else that looks like a credential (`redactText`). */
function scrubText(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  return redactText(out);
}

/**
 * A copy of `error` (and its causes) whose messages are masked, to be an `McpConnectionError`'s cause: the
 * transport's own error may repeat a header or a URL's credentials, and a logged error shows its causes.
 */
function scrubbedError(error: unknown, scrub: (text: string) => string, depth = 0): unknown {
  if (!(error instanceof Error)) return typeof error === "string" ? scrub(error) : undefined;
  const copy = new Error(scrub(error.message), depth < 3 && error.cause !== undefined ? { cause: scrubbedError(error.cause, scrub, depth + 1) } : undefined);
  copy.name = error.name;
  const code = (error as { code?: unknown }).code;
  if (code !== undefined) Object.assign(copy, { code });
  copy.stack = `${copy.name}: ${copy.message}`;
  return copy;
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

/** An error's message, with its cause's when that adds something (the transport's reason), and an HTTP status. */
function messageWithCause(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  const status = typeof code === "number" && code >= 100 && code < 600 ? `HTTP ${code}: ` : "";
  const message = status + (error instanceof Error ? error.message : String(error));
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : undefined;
  return cause && !message.includes(cause) ? `${message} (${cause})` : message;
}
