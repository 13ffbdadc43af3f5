import { createChat, memoryStore } from "june/chat";
import { describe, expect, it } from "vitest";
import { bagOfWordsEmbedding, scriptedModel, sseEvents } from "../testing/index.js";
import { bearerAuthorize, clientOf, type OwnerClient } from "./__fixtures__/owners.js";
import { listen } from "./__fixtures__/servers.js";
import { createChatHandler } from "./create-chat-handler.js";

const PLAN = "Alice's project is called Lark; she works in metric units.";

async function setup() {
  const model = scriptedModel(({ options }) => (JSON.stringify(options.prompt).includes("Lark") ? "You are on Lark." : "I do not know."));
  const embeddingModel = bagOfWordsEmbedding();
  const chat = createChat({ model, store: memoryStore(), memory: { working: {}, recall: { embeddingModel } } });
  const base = await listen(createChatHandler(chat, { authorize: bearerAuthorize }));
  return { chat, model, base, alice: clientOf(base, "token-alice"), bob: clientOf(base, "token-bob") };
}

/** A turn over HTTP: its reply text. */
async function ask(client: OwnerClient, input: string): Promise<string> {
  const id = await client.createSession();
  const response = await client.post(`/sessions/${id}/turns`, { input });
  let text = "";
  for await (const event of sseEvents(response)) if (event.event === "text-delta") text += event.data.text;
  return text;
}

describe("GET/PUT/DELETE /memory: the signed-in owner's, never another's", () => {
  it("alice sets and reads her memory; bob sees none, cannot forget hers, and his turns never get it or her recalled turns", async () => {
    const { chat, alice, bob } = await setup();
    expect(await (await alice.get("/memory")).json()).toEqual({ memory: null, versions: [] });
    const put = await alice.call("PUT", "/memory", { text: PLAN });
    expect(put.status).toBe(200);
    expect(((await put.json()) as { memory: { version: number } }).memory.version).toBe(1);
    // The same text again is no new version.
    await alice.call("PUT", "/memory", { text: PLAN });
    const read = (await (await alice.get("/memory")).json()) as { memory: { text: string }; versions: unknown[] };
    expect(read.memory.text).toBe(PLAN);
    expect(read.versions).toHaveLength(1);
    expect(await (await bob.get("/memory")).json()).toEqual({ memory: null, versions: [] });

    // Her memory reaches her turns, not his; her turn is recalled in her next session, not in his.
    expect(await ask(alice, "Which project am I on?")).toBe("You are on Lark.");
    expect(await ask(bob, "Which project am I on?")).toBe("I do not know.");
    await chat.memory("alice").set("");
    await chat.memory("alice").indexed();
    expect(await ask(alice, "Which project am I on, again?")).toBe("You are on Lark.");
    expect(await ask(bob, "Which project am I on, again?")).toBe("I do not know.");

    // Bob's DELETE forgets his own memory only.
    await chat.memory("alice").set(PLAN);
    expect((await bob.call("DELETE", "/memory")).status).toBe(200);
    expect(((await (await alice.get("/memory")).json()) as { memory: { text: string } }).memory.text).toBe(PLAN);
    expect((await alice.call("DELETE", "/memory")).status).toBe(200);
    expect(await (await alice.get("/memory")).json()).toEqual({ memory: null, versions: [] });
    expect(await ask(alice, "Which project am I on, again?")).toBe("I do not know.");

    expect((await alice.call("PUT", "/memory", { text: 42 })).status).toBe(400);
    expect((await alice.call("PUT", "/memory", { text: "x", owner: "bob" })).status).toBe(400);
    // ?owner= names the caller or no one: bob's memory stays his.
    await chat.memory("bob").set("Bob's own.");
    expect((await alice.get("/memory?owner=bob")).status).toBe(403);
    expect((await alice.call("DELETE", "/memory?owner=bob")).status).toBe(403);
    expect((await alice.get("/memory?owner=alice")).status).toBe(200);
    expect((await chat.memory("bob").get())?.text).toBe("Bob's own.");
  });

  it("without authorize (Studio on this machine) takes the owner from ?owner=, and answers 400 without one", async () => {
    const open = createChat({ model: scriptedModel("hi"), store: memoryStore(), memory: { working: {} } });
    const base = await listen(createChatHandler(open));
    expect((await fetch(`${base}/memory`)).status).toBe(400);
    const put = await fetch(`${base}/memory?owner=carol`, { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify({ text: "Carol's." }) });
    expect(put.status).toBe(200);
    expect(((await (await fetch(`${base}/memory?owner=carol`)).json()) as { versions: { version: number }[] }).versions.map((v) => v.version)).toEqual([1]);
    expect(await (await fetch(`${base}/memory?owner=dan`)).json()).toEqual({ memory: null, versions: [] });
    expect((await fetch(`${base}/memory?owner=carol`, { method: "DELETE" })).status).toBe(200);
    expect(await open.memory("carol").get()).toBeUndefined();
  });

  it("answers 404 in a chat that keeps no memory", async () => {
    const plain = createChat({ model: scriptedModel("hi"), store: memoryStore() });
    const alice = clientOf(await listen(createChatHandler(plain, { authorize: bearerAuthorize })), "token-alice");
    expect((await alice.get("/memory")).status).toBe(404);
  });
});
