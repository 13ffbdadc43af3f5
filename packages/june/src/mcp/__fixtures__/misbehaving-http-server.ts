import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { misbehavingServer } from "./misbehaving-server.mjs";

/**
 * The misbehaving MCP server (misbehaving-server.mjs) over Streamable HTTP on 127.0.0.1: the first path segment
 * is the mode (`/hang-call/mcp`), answers are JSON, or Server-Sent Events under `/sse/<mode>/mcp`. Mode `echo`
 * refuses every request with a 401 whose body repeats the request's URL and `Authorization` header, as some
 * servers do; `echo500` does the same with a 500.
 */
export interface MisbehavingHttpServer {
  /** `http://127.0.0.1:<port>`. */
  readonly origin: string;
  close(): Promise<void>;
}

export async function startMisbehavingHttpServer(options: { bytes?: number } = {}): Promise<MisbehavingHttpServer> {
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const segments = (req.url ?? "/").split("?")[0]!.split("/").filter(Boolean);
    const sse = segments[0] === "sse";
    const mode = (sse ? segments[1] : segments[0]) ?? "";
    if (mode === "echo" || mode === "echo500") {
      res.writeHead(mode === "echo" ? 401 : 500, { "content-type": "text/plain" });
      res.end(`refused ${req.url} with authorization ${req.headers.authorization ?? "(none)"}`);
      return;
    }
    if (req.method !== "POST") return void res.writeHead(405).end();
    const message: unknown = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    const lines = misbehavingServer({ mode, bytes: options.bytes }).respond(message);
    if (lines.length === 0) {
      // A notification is accepted; a request the server means to ignore is left hanging.
      if ((message as { id?: unknown }).id === undefined) res.writeHead(202).end();
      return;
    }
    if (sse) {
      res.writeHead(200, { "content-type": "text/event-stream" });
      for (const line of lines) res.write(`event: message\ndata: ${line}\n\n`);
      res.end();
      return;
    }
    res.writeHead(200, { "content-type": "application/json" });
    res.end(lines[0]);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
