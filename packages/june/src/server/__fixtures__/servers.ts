import { afterEach } from "vitest";
import { serve, type FetchHandler } from "../node.js";

const open: (() => Promise<void>)[] = [];

afterEach(async () => {
  await Promise.all(open.splice(0).map((close) => close()));
});

/** Serves `handler` on a free loopback port for the current test; closed after it. */
export async function listen(handler: FetchHandler): Promise<string> {
  const server = await serve({ handler });
  open.push(() => server.close());
  return server.url;
}

/** Registers cleanup to run after the current test. */
export function onCleanup(close: () => Promise<void> | void): void {
  open.push(async () => {
    await close();
  });
}

/**
 * `POST url` with `body` as JSON (no body when undefined; a string is sent as it is, so a test can send bad
 * JSON). `init`: more headers, and a signal.
 */
export function post(url: string, body?: unknown, init: RequestInit = {}): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...(init.headers as Record<string, string>) },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    ...(init.signal && { signal: init.signal }),
  });
}
