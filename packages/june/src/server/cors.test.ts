import { createChat } from "june/chat";
import { createChatHandler } from "june/server";
import { scriptedModel } from "june/testing";
import { describe, expect, it } from "vitest";
import { listen } from "./__fixtures__/servers.js";

const APP = "https://app.example.com";
const OTHER = "https://evil.example.net";

const preflight = (base: string, origin: string, path = "/ui-chat") =>
  fetch(`${base}${path}`, {
    method: "OPTIONS",
    headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "content-type, x-app-key" },
  });

const corsHeaders = (response: Response) => {
  const found: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (name.startsWith("access-control-")) found[name] = value;
  });
  return found;
};

describe("createChatHandler's cors option", () => {
  it("answers a configured origin's preflight and puts its headers on every response; another origin gets none", async () => {
    const chat = createChat({ model: scriptedModel(["Hello."]) });
    const key = "app-key-0123456789";
    const base = await listen(
      createChatHandler(chat, { cors: { origin: APP, credentials: true }, authorize: (request) => request.headers.get("x-app-key") === key }),
    );

    // The preflight comes without credentials: answered before `authorize`.
    const ok = await preflight(base, APP);
    expect(ok.status).toBe(204);
    expect(corsHeaders(ok)).toMatchObject({
      "access-control-allow-origin": APP,
      "access-control-allow-credentials": "true",
      "access-control-allow-methods": expect.stringContaining("POST"),
      "access-control-allow-headers": "content-type, x-app-key",
      "access-control-max-age": "600",
    });
    expect(ok.headers.get("vary")).toContain("Origin");

    const refused = await preflight(base, OTHER);
    expect(refused.status).toBe(403);
    expect(corsHeaders(refused)).toEqual({});
    expect(((await refused.json()) as { error: string }).error).toContain(OTHER);

    // The actual requests: the configured origin's carry the headers, a 401 and a stream included.
    const denied = await fetch(`${base}/sessions`, { headers: { origin: APP } });
    expect(denied.status).toBe(401);
    expect(denied.headers.get("access-control-allow-origin")).toBe(APP);

    const headers = { origin: APP, "x-app-key": key, "content-type": "application/json" };
    const stream = await fetch(`${base}/ui-chat`, {
      method: "POST",
      headers,
      body: JSON.stringify({ id: "cors-1", messages: [{ id: "u", role: "user", parts: [{ type: "text", text: "Hi" }] }], trigger: "submit-message" }),
    });
    expect(stream.status).toBe(200);
    expect(corsHeaders(stream)).toMatchObject({
      "access-control-allow-origin": APP,
      "access-control-allow-credentials": "true",
      "access-control-expose-headers": expect.stringMatching(/x-june-turn-id.*x-resumable-stream-id/),
    });
    expect(await stream.text()).toContain("Hello.");

    const other = await fetch(`${base}/sessions`, { headers: { ...headers, origin: OTHER } });
    expect(other.status).toBe(200);
    expect(corsHeaders(other)).toEqual({});
    const sameOrigin = await fetch(`${base}/sessions`, { headers: { "x-app-key": key } });
    expect(corsHeaders(sameOrigin)).toEqual({});
  });

  it("takes a list or a function of the origin; without the option there are no CORS headers at all", async () => {
    const chat = createChat({ model: scriptedModel([]) });
    const listed = await listen(createChatHandler(chat, { cors: { origin: [APP, "http://localhost:5173"] } }));
    expect((await preflight(listed, "http://localhost:5173", "/sessions")).headers.get("access-control-allow-origin")).toBe("http://localhost:5173");
    expect((await preflight(listed, OTHER, "/sessions")).status).toBe(403);
    const listedGet = await fetch(`${listed}/sessions`, { headers: { origin: APP } });
    expect(listedGet.headers.get("access-control-allow-origin")).toBe(APP);
    expect(listedGet.headers.get("access-control-allow-credentials")).toBeNull();

    const seen: string[] = [];
    const byFunction = await listen(
      createChatHandler(chat, { cors: { origin: (origin) => (seen.push(origin), origin.endsWith(".example.com")) } }),
    );
    expect((await preflight(byFunction, APP)).status).toBe(204);
    expect((await preflight(byFunction, OTHER)).status).toBe(403);
    expect(seen).toEqual([APP, OTHER]);

    const none = await listen(createChatHandler(chat));
    const plain = await fetch(`${none}/sessions`, { headers: { origin: APP } });
    expect(corsHeaders(plain)).toEqual({});
    const options = await preflight(none, APP);
    expect(options.status).toBe(405);
    expect(corsHeaders(options)).toEqual({});
  });

  it("refuses options that cannot be right", () => {
    const chat = createChat({ model: scriptedModel([]) });
    expect(() => createChatHandler(chat, { cors: { origin: "*", credentials: true } })).toThrow(/credentials/);
    expect(() => createChatHandler(chat, { cors: { origin: "https://app.example.com/" } })).toThrow(/no path/);
    expect(() => createChatHandler(chat, { cors: { origin: [] } })).toThrow(/cors.origin/);
    expect(() => createChatHandler(chat, { cors: { origin: APP, maxAge: -1 } })).toThrow(/maxAge/);
  });
});
