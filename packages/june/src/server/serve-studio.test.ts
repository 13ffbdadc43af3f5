import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join, sep } from "node:path";
import { createChat } from "june/chat";
import { DEFAULT_STUDIO_DIR, serveStudio, type StudioServer } from "june/studio";
import { scriptedModel } from "june/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readSse } from "./__fixtures__/sse-client.js";

let dir: string;
let studio: StudioServer | undefined;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "june-serve-studio-"));
  await mkdir(join(dir, "assets"));
  await writeFile(join(dir, "index.html"), "<!doctype html><title>June Studio</title>");
  await writeFile(join(dir, "assets", "app.js"), "console.log('studio')");
});

afterEach(async () => {
  await studio?.close();
  studio = undefined;
  await rm(dir, { recursive: true, force: true });
});

async function start(script: Parameters<typeof scriptedModel>[0] = ["Hi from Studio"]) {
  studio = await serveStudio({ chat: createChat({ model: scriptedModel(script) }), staticDir: dir });
  return studio;
}

/** A raw request, so the test can send any Host header (fetch does not let it). */
function rawGet(port: number, path: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port, path, headers }, (res) => {
      res.resume();
      resolve(res.statusCode!);
    });
    req.on("error", reject);
    req.end();
  });
}

describe("serveStudio", () => {
  it("listens on 127.0.0.1 with a random token in the URL", async () => {
    const { url, token, origin, port } = await start();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{40,}$/);
    expect(url).toBe(`${origin}/?token=${token}`);
    expect(origin).toBe(`http://127.0.0.1:${port}`);
    const other = await serveStudio({ chat: createChat({ model: scriptedModel([]) }), staticDir: dir });
    expect(other.token).not.toBe(token);
    await other.close();
  });

  it("refuses requests without the token with 401", async () => {
    const { origin } = await start();
    for (const path of ["/", "/api/sessions", "/assets/app.js", "/some/page"]) {
      const response = await fetch(`${origin}${path}`);
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ error: expect.stringMatching(/token/) });
    }
    expect((await fetch(`${origin}/?token=wrong-token-wrong-token`)).status).toBe(401);
    expect((await fetch(`${origin}/api/sessions`, { headers: { "x-june-token": "nope" } })).status).toBe(401);
    expect((await fetch(`${origin}/api/sessions`, { headers: { cookie: `june_studio_${studio!.port}=nope` } })).status).toBe(401);
  });

  it("serves the app with the token and sets a cookie that serves the rest", async () => {
    const { url, origin, token, port } = await start();
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/text\/html/);
    expect(page.headers.get("referrer-policy")).toBe("no-referrer");
    expect(await page.text()).toContain("June Studio");
    const cookie = page.headers.getSetCookie()[0];
    expect(cookie).toBe(`june_studio_${port}=${token}; Path=/; HttpOnly; SameSite=Strict`);
    const jar = cookie.split(";")[0];

    const asset = await fetch(`${origin}/assets/app.js`, { headers: { cookie: jar } });
    expect(asset.status).toBe(200);
    expect(asset.headers.get("content-type")).toMatch(/javascript/);
    expect(await asset.text()).toBe("console.log('studio')");
    // Unknown app paths get the page; missing assets a 404; nothing outside the app's directory.
    expect(await (await fetch(`${origin}/sessions/abc`, { headers: { cookie: jar } })).text()).toContain("June Studio");
    expect((await fetch(`${origin}/assets/missing.js`, { headers: { cookie: jar } })).status).toBe(404);
    const escape = await fetch(`${origin}/..%2F..%2Fpackage.json`, { headers: { cookie: jar } });
    expect(await escape.text()).toContain("June Studio");

    const sessions = await fetch(`${origin}/api/sessions`, { headers: { cookie: jar } });
    expect(sessions.status).toBe(200);
    expect(await sessions.json()).toEqual({ sessions: [] });
  });

  it("serves the chat API under /api with the token header", async () => {
    const { origin, token } = await start(["Hi from Studio"]);
    const headers = { "x-june-token": token, "content-type": "application/json" };
    const created = await fetch(`${origin}/api/sessions`, { method: "POST", headers });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const events = await readSse(await fetch(`${origin}/api/sessions/${id}/turns`, { method: "POST", headers, body: JSON.stringify({ input: "hello" }) }));
    expect(events.at(-1)!.data).toMatchObject({ type: "turn-end", status: "completed", text: "Hi from Studio" });
    // Same-origin requests (the app's own) carry the Origin header and pass.
    const same = await fetch(`${origin}/api/sessions/${id}`, { headers: { ...headers, origin } });
    expect(same.status).toBe(200);
  });

  it("refuses cross-origin requests and foreign Host headers with 403, even with the token", async () => {
    const { origin, token, port } = await start();
    for (const foreign of ["http://evil.example", "null", `http://127.0.0.1:${port + 1}`]) {
      const response = await fetch(`${origin}/api/sessions`, { headers: { "x-june-token": token, origin: foreign } });
      expect(response.status).toBe(403);
      expect(await response.json()).toEqual({ error: expect.stringMatching(/Cross-origin/) });
    }
    const post = await fetch(`${origin}/api/sessions`, { method: "POST", headers: { "x-june-token": token, origin: "http://evil.example" } });
    expect(post.status).toBe(403);
    expect(await rawGet(port, `/?token=${token}`, { host: `rebound.example:${port}` })).toBe(403);
    expect(await rawGet(port, `/?token=${token}`, { host: `localhost:${port}` })).toBe(200);
  });

  it("says so when the app is not built", async () => {
    const empty = await mkdtemp(join(tmpdir(), "june-serve-studio-empty-"));
    try {
      studio = await serveStudio({ chat: createChat({ model: scriptedModel([]) }), staticDir: empty, token: "a-fixed-token-for-tests" });
      expect(studio.token).toBe("a-fixed-token-for-tests");
      const response = await fetch(`${studio.url}`);
      expect(response.status).toBe(503);
      expect(await response.text()).toMatch(/not built/);
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
    await expect(serveStudio({ chat: createChat({ model: scriptedModel([]) }), token: "short" })).rejects.toThrow(/token/);
  });

  it("closes when its signal aborts", async () => {
    const controller = new AbortController();
    studio = await serveStudio({ chat: createChat({ model: scriptedModel([]) }), staticDir: dir, signal: controller.signal });
    expect((await fetch(studio.url)).status).toBe(200);
    controller.abort();
    await expect.poll(async () => fetch(studio!.url).then(() => "open", () => "closed")).toBe("closed");
  });

  it("finds the shipped app in packages/june/studio-dist", () => {
    expect(DEFAULT_STUDIO_DIR.replace(/[\\/]+$/, "").endsWith(["packages", "june", "studio-dist"].join(sep))).toBe(true);
  });
});
