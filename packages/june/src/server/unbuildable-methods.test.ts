import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createChat } from "june/chat";
import { createChatHandler, serve } from "june/server";
import { serveStudio, type StudioServer } from "june/studio";
import { scriptedModel } from "june/testing";
import { afterEach, describe, expect, it } from "vitest";
import { listen } from "./__fixtures__/servers.js";
import { rawRequest } from "./__fixtures__/raw-http.js";

let studio: StudioServer | undefined;
let dir: string | undefined;
afterEach(async () => {
  await studio?.close();
  studio = undefined;
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

const chat = () => createChat({ model: scriptedModel(["hi"]) });

describe("methods the Fetch API cannot build a Request for", () => {
  it("the handler answers TRACE with 405 and the route's Allow, before anything else", async () => {
    const base = await listen(createChatHandler(chat()));
    for (const path of ["/sessions", "/sessions/abc"]) {
      const response = await rawRequest(base, { method: "TRACE", path });
      expect(response.status).toBe(405);
      expect(JSON.parse(response.body)).toEqual({ error: `TRACE is not allowed on ${path}` });
      expect(response.headers["content-type"]).toMatch(/application\/json/);
    }
    expect((await rawRequest(base, { method: "TRACE", path: "/sessions" })).headers.allow).toBe("GET, POST");
    expect((await rawRequest(base, { method: "TRACE", path: "/sessions/abc" })).headers.allow).toBe("GET, DELETE");
    // Other unusual methods the Fetch API does take keep reaching the router.
    const propfind = await rawRequest(base, { method: "PROPFIND", path: "/sessions" });
    expect(propfind.status).toBe(405);
    expect(propfind.headers.allow).toBe("GET, POST");
  });

  it("Studio answers TRACE with 405 too, with its routes' Allow when the token is given", async () => {
    dir = await mkdtemp(join(tmpdir(), "june-trace-studio-"));
    await writeFile(join(dir, "index.html"), "<!doctype html>");
    studio = await serveStudio({ chat: chat(), staticDir: dir });
    const token = { "x-june-token": studio.token };
    const page = await rawRequest(studio.origin, { method: "TRACE", path: "/", headers: token });
    expect(page.status).toBe(405);
    expect(page.headers.allow).toBe("GET, HEAD");
    const api = await rawRequest(studio.origin, { method: "TRACE", path: "/api/sessions", headers: token });
    expect(api.status).toBe(405);
    expect(api.headers.allow).toBe("GET, POST");
    // Without the token nothing of the routes is told; still a 405, never a 500.
    const anonymous = await rawRequest(studio.origin, { method: "TRACE", path: "/api/sessions" });
    expect(anonymous.status).toBe(405);
    expect(anonymous.headers.allow).toBe("GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS");
  });

  it("a handler that cannot answer OPTIONS: the 405 lists every method a Fetch handler can take", async () => {
    const server = await serve({
      handler: () => {
        throw new Error("boom");
      },
    });
    try {
      const response = await rawRequest(server.url, { method: "TRACE", path: "/x" });
      expect(response.status).toBe(405);
      expect(response.headers.allow).toBe("GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS");
    } finally {
      await server.close();
    }
  });
});
