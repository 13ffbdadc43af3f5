import { request as httpRequest } from "node:http";

/** A response as a raw `node:http` request got it. */
export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * Sends one request with `node:http` (any method, header or path, which `fetch` refuses to send) and reads
 * the whole answer. A connection the server drops resolves with status 0.
 */
export function rawRequest(
  base: string,
  options: { method: string; path: string; headers?: Record<string, string>; body?: string | Buffer; timeoutMs?: number },
): Promise<RawResponse> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: url.hostname, port: url.port, method: options.method, path: options.path, headers: options.headers, timeout: options.timeoutMs ?? 10_000 },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }));
        res.on("error", () => resolve({ status: 0, headers: {}, body: "" }));
      },
    );
    req.on("timeout", () => {
      req.destroy();
      reject(new Error(`${options.method} ${options.path}: no answer within ${options.timeoutMs ?? 10_000} ms`));
    });
    req.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "ECONNRESET" || error.code === "EPIPE" || error.message === "socket hang up") resolve({ status: 0, headers: {}, body: "" });
      else reject(error);
    });
    req.end(options.body);
  });
}
