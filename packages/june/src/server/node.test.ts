import { request as httpRequest } from "node:http";
import { serve, toNodeListener } from "june/server";
import { describe, expect, it } from "vitest";
import { listen, onCleanup } from "./__fixtures__/servers.js";

/** A promise with its resolve, for handshakes between the test and a handler. */
function signal<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe("toNodeListener and serve", () => {
  it("answers 500 JSON when the handler throws, rejects or returns no Response, and keeps serving", async () => {
    const errors: unknown[] = [];
    const server = await serve({
      handler: async (request) => {
        const path = new URL(request.url).pathname;
        if (path === "/throw") throw new Error("secret internals sk-proj-ABCDEFGHIJ0123456789xyz");
        if (path === "/reject") return Promise.reject(new TypeError("bad"));
        if (path === "/nothing") return undefined as unknown as Response;
        return new Response("fine");
      },
      onError: (error) => errors.push(error),
    });
    onCleanup(() => server.close());
    for (const path of ["/throw", "/reject", "/nothing"]) {
      const response = await fetch(`${server.url}${path}`);
      expect(response.status).toBe(500);
      expect(await response.json()).toEqual({ error: "Internal server error" });
    }
    expect(errors).toHaveLength(3);
    expect(await (await fetch(`${server.url}/ok`)).text()).toBe("fine");
  });

  it("streams a response body as it is written", async () => {
    const firstRead = signal();
    const base = await listen(() => {
      let step = 0;
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          const encoder = new TextEncoder();
          if (step === 0) controller.enqueue(encoder.encode("one;"));
          // The second piece is only written once the client has read the first: a buffered body would hang.
          if (step === 1) {
            await firstRead.promise;
            controller.enqueue(encoder.encode("two;"));
          }
          if (step === 2) controller.close();
          step++;
        },
      });
      return new Response(body, { headers: { "content-type": "text/plain" } });
    });
    const response = await fetch(base);
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    expect((await reader.read()).value).toBe("one;");
    firstRead.resolve();
    let rest = "";
    for (;;) {
      const next = await reader.read();
      if (next.done) break;
      rest += next.value;
    }
    expect(rest).toBe("two;");
  });

  it("aborts the request's signal when the client disconnects", async () => {
    const aborted = signal<string>();
    const started = signal();
    const base = await listen((request) => {
      request.signal.addEventListener("abort", () => aborted.resolve("aborted"));
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode("hello"));
          started.resolve();
        },
      });
      return new Response(body);
    });
    const client = new AbortController();
    const response = await fetch(base, { signal: client.signal });
    const reader = response.body!.getReader();
    await reader.read();
    await started.promise;
    client.abort();
    expect(await aborted.promise).toBe("aborted");
  });

  it("passes the method, URL, headers and streamed body through, and every Set-Cookie back", async () => {
    const base = await listen(async (request) => {
      const headers = new Headers({ "x-method": request.method, "x-path": new URL(request.url).pathname + new URL(request.url).search });
      headers.append("set-cookie", "a=1; Path=/");
      headers.append("set-cookie", "b=2; Path=/");
      return new Response(`${request.headers.get("x-test")}:${await request.text()}`, { status: 201, headers });
    });
    const response = await fetch(`${base}/echo?q=1`, { method: "PUT", headers: { "x-test": "yes" }, body: "x".repeat(100_000) });
    expect(response.status).toBe(201);
    expect(response.headers.get("x-method")).toBe("PUT");
    expect(response.headers.get("x-path")).toBe("/echo?q=1");
    expect(response.headers.getSetCookie()).toEqual(["a=1; Path=/", "b=2; Path=/"]);
    expect(await response.text()).toBe(`yes:${"x".repeat(100_000)}`);
  });

  it("works as a plain http listener and sends no body for HEAD", async () => {
    const { createServer } = await import("node:http");
    const server = createServer(toNodeListener(() => new Response("body", { headers: { "x-ok": "1" } })));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    onCleanup(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const { port } = server.address() as { port: number };
    const result = await new Promise<{ status: number; body: string; ok: string | undefined }>((resolve, reject) => {
      const req = httpRequest({ host: "127.0.0.1", port, method: "HEAD", path: "/" }, (res) => {
        let body = "";
        res.on("data", (chunk) => (body += chunk));
        res.on("end", () => resolve({ status: res.statusCode!, body, ok: res.headers["x-ok"] as string | undefined }));
      });
      req.on("error", reject);
      req.end();
    });
    expect(result).toEqual({ status: 200, body: "", ok: "1" });
  });

  it("closes on abort, dropping open streams", async () => {
    const controller = new AbortController();
    const server = await serve({ handler: () => new Response(new ReadableStream({})), signal: controller.signal });
    const response = await fetch(server.url);
    const reading = response.body!.getReader().read().catch((error: unknown) => error);
    controller.abort();
    await server.close();
    await reading;
    await expect(fetch(server.url)).rejects.toThrow();
  });
});
