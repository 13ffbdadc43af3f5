import { createChat } from "june/chat";
import { parseJSONL } from "june/learning";
import { createChatHandler } from "june/server";
import { scriptedModel, type Script } from "june/testing";
import { describe, expect, it } from "vitest";
import { listen, post } from "./__fixtures__/servers.js";
import { readSse } from "./__fixtures__/sse-client.js";

async function setup(script: Script) {
  const chat = createChat({ model: scriptedModel(script), instructions: "Be brief." });
  const base = await listen(createChatHandler(chat));
  return { chat, base };
}

/** Sends one turn over HTTP, reads its events to the end, and returns its id. */
async function turn(base: string, sessionId: string, input: string): Promise<string> {
  const response = await post(`${base}/sessions/${sessionId}/turns`, { input });
  expect(response.status).toBe(200);
  const turnId = response.headers.get("x-june-turn-id");
  await readSse(response);
  expect(turnId).toBeTruthy();
  return turnId!;
}

async function expectJsonError(response: Response, status: number, match: RegExp) {
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toMatch(/^application\/json/);
  const body = (await response.json()) as { error: unknown };
  expect(body.error).toMatch(match);
}

describe("GET /sessions/:id/cases", () => {
  it("answers the session's completed turns as a JSONL download, filtered by feedback", async () => {
    const { base } = await setup(["Paris.", "Berlin.", { error: "model down", errorAt: "start" }, "Rome."]);
    expect((await post(`${base}/sessions`, { id: "geo" })).status).toBe(201);
    const first = await turn(base, "geo", "Capital of France?");
    const second = await turn(base, "geo", "And Germany?");
    await turn(base, "geo", "And Spain?"); // fails: not a case
    const fourth = await turn(base, "geo", "And Italy?");
    expect((await post(`${base}/sessions/geo/turns/${first}/feedback`, { score: 1, comment: "right" })).status).toBe(200);
    expect((await post(`${base}/sessions/geo/turns/${second}/feedback`, { score: -1, tags: ["wrong"] })).status).toBe(200);

    const all = await fetch(`${base}/sessions/geo/cases?filter=all`);
    expect(all.status).toBe(200);
    expect(all.headers.get("content-type")).toMatch(/^application\/x-ndjson/);
    expect(all.headers.get("content-disposition")).toBe('attachment; filename="geo-cases.jsonl"');
    expect(all.headers.get("cache-control")).toBe("no-store");
    const text = await all.text();
    const lines = text.split("\n");
    expect(lines.at(-1)).toBe("");
    expect(lines).toHaveLength(4);
    const cases = parseJSONL(text);
    expect(cases.map((c) => [c.id, c.input, c.reply])).toEqual([
      [`geo/${first}`, "Capital of France?", "Paris."],
      [`geo/${second}`, "And Germany?", "Berlin."],
      [`geo/${fourth}`, "And Italy?", "Rome."],
    ]);
    expect(cases[0]!.feedback).toEqual({ score: 1, comment: "right" });
    expect(cases[0]!.metadata).toMatchObject({ sessionId: "geo", turnId: first, responder: { kind: "model" } });
    expect(cases[0]!.messages).toEqual([]);
    // The second turn was answered after the first: its context is that exchange.
    expect(JSON.stringify(cases[1]!.messages)).toContain("Capital of France?");
    expect(JSON.stringify(cases[1]!.messages)).toContain("Paris.");

    const ids = async (query: string) =>
      parseJSONL(await (await fetch(`${base}/sessions/geo/cases${query}`)).text()).map((c) => c.metadata.turnId);
    expect(await ids("")).toEqual([first, second, fourth]);
    expect(await ids("?filter=up")).toEqual([first]);
    expect(await ids("?filter=down")).toEqual([second]);
  });

  it("redacts credentials in inputs, replies and context", async () => {
    const secret = "sk-proj-0123456789abcdefghijklmn";
    const token = "ghp_abcdefghijklmnopqrstuvwxyz0123456789";
    const { chat, base } = await setup([`Stored. Your token is ${token}.`, "Done."]);
    expect((await post(`${base}/sessions`, { id: "keys" })).status).toBe(201);
    await turn(base, "keys", `My OpenAI key is ${secret}, keep it safe.`);
    await turn(base, "keys", "Thanks.");
    // The journal keeps the input as typed (the responder needs it): the route itself must redact.
    const journaled = JSON.stringify(await chat.store.read("keys"));
    expect(journaled).toContain(secret);

    const text = await (await fetch(`${base}/sessions/keys/cases`)).text();
    expect(text).not.toContain(secret);
    expect(text).not.toContain(token);
    const cases = parseJSONL(text);
    expect(cases[0]!.input).toBe("My OpenAI key is [redacted], keep it safe.");
    expect(cases[0]!.reply).toBe("Stored. Your token is [redacted].");
    expect(JSON.stringify(cases[1]!.messages)).toContain("My OpenAI key is [redacted]");
  });

  it("answers an empty file for a session with no completed turns", async () => {
    const { base } = await setup([]);
    expect((await post(`${base}/sessions`, { id: "empty" })).status).toBe(201);
    const response = await fetch(`${base}/sessions/empty/cases?filter=up`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-disposition")).toBe('attachment; filename="empty-cases.jsonl"');
    expect(await response.text()).toBe("");
  });

  it("refuses unknown sessions, bad ids, bad filters and other methods with JSON errors", async () => {
    const { base } = await setup([]);
    expect((await post(`${base}/sessions`, { id: "s" })).status).toBe(201);
    await expectJsonError(await fetch(`${base}/sessions/nope/cases`), 404, /nope/);
    await expectJsonError(await fetch(`${base}/sessions/${encodeURIComponent("../etc")}/cases`), 400, /Invalid session id/);
    await expectJsonError(await fetch(`${base}/sessions/s/cases?filter=sideways`), 400, /"filter" must be "all", "up" or "down", got "sideways"/);
    await expectJsonError(await fetch(`${base}/sessions/s/cases?filter=`), 400, /"filter" must be/);
    await expectJsonError(await fetch(`${base}/sessions/s/cases?filter=up&filter=down`), 400, /once/);
    const wrongMethod = await post(`${base}/sessions/s/cases`, {});
    await expectJsonError(wrongMethod, 405, /POST is not allowed/);
    expect(wrongMethod.headers.get("allow")).toBe("GET");
    // The handler keeps serving after the refusals.
    expect((await fetch(`${base}/sessions/s/cases`)).status).toBe(200);
  });
});
