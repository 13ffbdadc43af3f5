import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { toNodeListener, type FetchHandler, type NodeListener } from "june/server";

export interface ServeCopyAgentOptions {
  /** The API (`createCopyAgent(...).handler`), for every `/api/` request. */
  api: FetchHandler;
  /** Everything else: the built UI (`toNodeListener(staticFiles(dir))`) or Vite's dev middleware. */
  ui: NodeListener;
  /** Default 0: a free port. Always on 127.0.0.1. */
  port?: number;
  onError?: (error: unknown) => void;
}

export interface RunningCopyAgent {
  server: Server;
  url: string;
  close(): Promise<void>;
}

/** Serves the Copy Agent on 127.0.0.1 (`/api/` to the API through June's Node adapter, the rest to the UI). */
export async function serveCopyAgent({ api, ui, port = 0, onError }: ServeCopyAgentOptions): Promise<RunningCopyAgent> {
  const apiListener = toNodeListener(api, { onError });
  const server = createServer((req, res) => (req.url?.startsWith("/api/") ? apiListener(req, res) : ui(req, res)));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", resolve);
  });
  const { port: bound } = server.address() as AddressInfo;
  return {
    server,
    url: `http://127.0.0.1:${bound}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
