import { createChat } from "june/chat";
import { createChatHandler } from "june/server";
import { scriptedModel, type Script } from "june/testing";
import { describe, expect, it } from "vitest";
import { listen, post } from "./__fixtures__/servers.js";
import { readSse } from "./__fixtures__/sse-client.js";

interface TurnJson {
  id: string;
  input: string;
  text?: string;
  status: string;
  parentTurnId?: string;
}

async function setup(script: Script) {
  const chat = createChat({ model: scriptedModel(script), instructions: "Be brief." });
  const base = await listen(createChatHandler(chat));
  const created = await post(`${base}/sessions`);
  const id = ((await created.json()) as { id: string }).id;
  return { base, id };
}

async function send(base: string, id: string, input: string): Promise<string> {
  const events = await readSse(await post(`${base}/sessions/${id}/turns`, { input }));
  return events[0]!.data.turnId as string;
}

async function turnsOf(base: string, id: string): Promise<TurnJson[]> {
  return ((await (await fetch(`${base}/sessions/${id}`)).json()) as { turns: TurnJson[] }).turns;
}

async function expectJsonError(response: Response, status: number, match: RegExp) {
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toMatch(/application\/json/);
  expect(((await response.json()) as { error: string }).error).toMatch(match);
}

describe("branch routes", () => {
  it("regenerates and edits a turn over SSE, lists the branches and checks one out", async () => {
    const { base, id } = await setup([{ text: ["one"] }, { text: ["two"] }, { text: ["two again"] }, { text: ["edited"] }]);
    const first = await send(base, id, "a");
    const second = await send(base, id, "b");

    const regenerated = await post(`${base}/sessions/${id}/turns/${second}/regenerate`);
    expect(regenerated.status).toBe(200);
    expect(regenerated.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const events = await readSse(regenerated);
    const againId = events[0]!.data.turnId as string;
    expect(events.map((e) => e.event)).toContain("text-delta");
    expect(events.at(-1)!.data).toMatchObject({ type: "turn-end", status: "completed", text: "two again" });
    // The same events can be rejoined, as for any turn.
    expect(await readSse(await fetch(`${base}/turns/${againId}/events`))).toEqual(events);
    expect((await turnsOf(base, id)).map((t) => [t.id, t.input, t.text])).toEqual([
      [first, "a", "one"],
      [againId, "b", "two again"],
    ]);

    const edited = await readSse(await post(`${base}/sessions/${id}/turns/${againId}/edit`, { input: "c" }));
    const editedId = edited[0]!.data.turnId as string;
    expect(edited.at(-1)!.data).toMatchObject({ type: "turn-end", status: "completed", text: "edited" });

    const branches = (await (await fetch(`${base}/sessions/${id}/turns/${second}/branches`)).json()) as { turns: TurnJson[] };
    expect(branches.turns.map((t) => [t.id, t.input, t.parentTurnId])).toEqual([
      [second, "b", first],
      [againId, "b", first],
      [editedId, "c", first],
    ]);

    const checkout = await post(`${base}/sessions/${id}/checkout`, { turnId: second });
    expect(checkout.status).toBe(200);
    const checkedOut = (await checkout.json()) as { turns: TurnJson[] };
    expect(checkedOut.turns.map((t) => t.text)).toEqual(["one", "two"]);
    expect((await turnsOf(base, id)).map((t) => t.id)).toEqual([first, second]);
  });

  it("answers bad requests with JSON errors", async () => {
    const { base, id } = await setup([{ text: ["one"] }]);
    const first = await send(base, id, "a");
    await expectJsonError(await post(`${base}/sessions/${id}/turns/nope/regenerate`), 404, /nope/);
    await expectJsonError(await post(`${base}/sessions/missing/turns/${first}/regenerate`), 404, /missing/);
    await expectJsonError(await post(`${base}/sessions/${id}/turns/${first}/regenerate`, { extra: 1 }), 400, /extra/);
    await expectJsonError(await post(`${base}/sessions/${id}/turns/${first}/edit`, {}), 400, /input/);
    await expectJsonError(await post(`${base}/sessions/${id}/turns/${first}/edit`, { input: "" }), 400, /input/);
    await expectJsonError(await post(`${base}/sessions/${id}/turns/${first}/edit`, "{not json"), 400, /JSON/i);
    await expectJsonError(await fetch(`${base}/sessions/${id}/turns/nope/branches`), 404, /nope/);
    await expectJsonError(await post(`${base}/sessions/${id}/checkout`, {}), 400, /turnId/);
    await expectJsonError(await post(`${base}/sessions/${id}/checkout`, { turnId: 7 }), 400, /turnId/);
    await expectJsonError(await post(`${base}/sessions/${id}/checkout`, { turnId: "nope" }), 404, /nope/);
    await expectJsonError(await fetch(`${base}/sessions/${id}/checkout`), 405, /GET/);
  });

  it("refuses to regenerate or check out while a turn runs in the session (409)", async () => {
    const slow = { text: Array.from({ length: 30 }, (_, i) => ({ text: `w${i} `, delay: 20 })) };
    const { base, id } = await setup([{ text: ["one"] }, slow]);
    const first = await send(base, id, "a");
    const running = await post(`${base}/sessions/${id}/turns`, { input: "b" });
    await expectJsonError(await post(`${base}/sessions/${id}/turns/${first}/regenerate`), 409, /running/);
    await expectJsonError(await post(`${base}/sessions/${id}/checkout`, { turnId: first }), 409, /running/);
    expect((await readSse(running)).at(-1)!.data).toMatchObject({ type: "turn-end", status: "completed" });
  });
});
