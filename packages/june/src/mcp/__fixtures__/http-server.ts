import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { createFixtureServer } from "./fixture-server.mjs";

/** The fixture MCP server over Streamable HTTP on 127.0.0.1 (port 0), stateless: one server per request. */
export interface HttpFixture {
  readonly url: string;
  /** Every tool call that reached the server, in order. */
  readonly calls: { tool: string; input: unknown }[];
  /** The headers of every HTTP request. */
  readonly headers: IncomingHttpHeaders[];
  close(): Promise<void>;
}

export async function startHttpFixture(): Promise<HttpFixture> {
  const calls: { tool: string; input: unknown }[] = [];
  const headers: IncomingHttpHeaders[] = [];
  const server: Server = createServer(async (req, res) => {
    headers.push(req.headers);
    if (req.method !== "POST") {
      res.writeHead(405).end();
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body: unknown = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    const mcp = createFixtureServer({ onCall: (call) => calls.push(call) });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on("close", () => {
      void transport.close();
      void mcp.close();
    });
    await mcp.connect(transport);
    await transport.handleRequest(req, res, body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    calls,
    headers,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
