import { createChat } from "june/chat";
import { createChatHandler } from "june/server";
import { scriptedModel } from "june/testing";
import { describe, expect, it } from "vitest";
import { listen } from "./__fixtures__/servers.js";
import { readSse } from "./__fixtures__/sse-client.js";

const call = (url: string, method: string, body?: unknown) =>
  fetch(url, {
    method,
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });

async function setup(replies: string[]) {
  const chat = createChat({ model: scriptedModel(replies) });
  const base = await listen(createChatHandler(chat));
  const id = ((await (await call(`${base}/sessions`, "POST")).json()) as { id: string }).id;
  const send = async (input: string) => (await readSse(await call(`${base}/sessions/${id}/turns`, "POST", { input })))[0]!.data.turnId as string;
  return { base, id, send };
}

describe("PUT /sessions/:id/title", () => {
  it("renames the session: the answer and the listing carry the new title", async () => {
    const { base, id, send } = await setup(["Deployed."]);
    await send("Deploy the docs to staging");
    const renamed = await call(`${base}/sessions/${id}/title`, "PUT", { title: "Docs, staging" });
    expect(renamed.status).toBe(200);
    expect(await renamed.json()).toMatchObject({ id, title: "Docs, staging", turnCount: 1 });
    const { sessions } = (await (await fetch(`${base}/sessions`)).json()) as { sessions: { id: string; title?: string }[] };
    expect(sessions.find((s) => s.id === id)?.title).toBe("Docs, staging");
  });

  it("answers a bad body with a 400 naming what was wrong, and an unknown session with a 404", async () => {
    const { base, id } = await setup([]);
    const error = async (response: Response) => [response.status, ((await response.json()) as { error: string }).error] as const;
    expect(await error(await call(`${base}/sessions/${id}/title`, "PUT", {}))).toEqual([400, expect.stringMatching(/"title"/)]);
    expect(await error(await call(`${base}/sessions/${id}/title`, "PUT", { title: "   " }))).toEqual([400, expect.stringMatching(/empty|blank/)]);
    expect(await error(await call(`${base}/sessions/${id}/title`, "PUT", { title: "x".repeat(81) }))).toEqual([400, expect.stringMatching(/at most 80/)]);
    expect(await error(await call(`${base}/sessions/${id}/title`, "PUT", { title: "ok", pinned: true }))).toEqual([400, expect.stringMatching(/pinned/)]);
    expect((await call(`${base}/sessions/nope/title`, "PUT", { title: "ok" })).status).toBe(404);
  });

  it("counts a title of only invisible or control characters as blank (400), and keeps what it had", async () => {
    const { base, id } = await setup([]);
    expect((await call(`${base}/sessions/${id}/title`, "PUT", { title: "Kept" })).status).toBe(200);
    for (const title of ["\u0000", "\u202e\u200b", "\u200b\u200c\u200d\ufeff", "\u0007\u001b\u007f", " \u00a0\u2060\u00ad "]) {
      const response = await call(`${base}/sessions/${id}/title`, "PUT", { title });
      expect(response.status, JSON.stringify(title)).toBe(400);
      expect(((await response.json()) as { error: string }).error).toMatch(/blank: it has no visible character/);
    }
    const { sessions } = (await (await fetch(`${base}/sessions`)).json()) as { sessions: { id: string; title?: string }[] };
    expect(sessions.find((s) => s.id === id)?.title).toBe("Kept");
    // Control characters in a title with visible ones are dropped; an emoji's joiners are kept.
    const renamed = await call(`${base}/sessions/${id}/title`, "PUT", { title: "Deploy\u0000 notes \u{1F469}\u200d\u{1F4BB}" });
    expect(((await renamed.json()) as { title: string }).title).toBe("Deploy notes \u{1F469}\u200d\u{1F4BB}");
  });
});

describe("GET /sessions/:id branches", () => {
  it("serves the alternatives at each turn of the current branch with the session, none when there are none", async () => {
    const { base, id, send } = await setup(["one", "two", "two again"]);
    await send("a");
    const b = await send("b");
    const get = async () => (await (await fetch(`${base}/sessions/${id}`)).json()) as { branches?: Record<string, string[]> };
    expect((await get()).branches).toBeUndefined();
    const again = (await readSse(await call(`${base}/sessions/${id}/turns/${b}/regenerate`, "POST")))[0]!.data.turnId as string;
    expect((await get()).branches).toEqual({ [again]: [b, again] });
    // The per-turn route answers the same.
    const { turns } = (await (await fetch(`${base}/sessions/${id}/turns/${again}/branches`)).json()) as { turns: { id: string }[] };
    expect(turns.map((turn) => turn.id)).toEqual([b, again]);
  });
});
