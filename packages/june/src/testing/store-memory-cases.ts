import assert from "node:assert/strict";
import { createHash, randomUUID } from "node:crypto";
import type { MemoryStoreMethods, RecallEntry } from "../stores/memory-types.js";
import type { ChatStore } from "../stores/types.js";
import type { StoreConformanceCase } from "./store-conformance.js";

type Def = (name: string, body: (store: ChatStore) => Promise<void>) => StoreConformanceCase;
type KeepsMemory = ChatStore & MemoryStoreMethods;

const METHODS = ["getMemory", "putMemory", "listMemoryVersions", "deleteMemory", "putRecall", "searchRecall", "deleteRecall"] as const;

/** The memory area's cases (working memory and the recall index), for stores that keep memory. */
export function memoryCases(def: Def): StoreConformanceCase[] {
  const keeps = (store: ChatStore): store is KeepsMemory => {
    const count = METHODS.filter((m) => typeof store[m] === "function").length;
    assert.ok(count === 0 || count === METHODS.length, "a store that keeps memory has every memory method");
    return count === METHODS.length;
  };
  const entry = (owner: string, sessionId: string, turnId: string, text: string, embedding: number[]): RecallEntry => ({
    owner,
    sessionId,
    turnId,
    text,
    contentHash: createHash("sha256").update(text).digest("hex"),
    embedding,
    at: new Date().toISOString(),
  });
  return [
    def("memory: working memory keeps versions per key; an unchanged text is no new version; keys never mix", async (store) => {
      if (!keeps(store)) return;
      const alice = { scope: "owner" as const, id: `alice-${randomUUID()}` };
      const bob = { scope: "owner" as const, id: `bob-${randomUUID()}` };
      const session = { scope: "session" as const, id: `conf-${randomUUID()}` };
      assert.equal(await store.getMemory(alice), undefined);
      assert.deepEqual(await store.listMemoryVersions(alice), []);
      const first = await store.putMemory(alice, { text: "Uses metric units.", sessionId: session.id, turnId: "t1" });
      assert.equal(first.version, 1);
      assert.equal(first.text, "Uses metric units.");
      assert.equal(first.sessionId, session.id);
      assert.equal(first.turnId, "t1");
      assert.ok(!Number.isNaN(Date.parse(first.at)), "at is an ISO time");
      const same = await store.putMemory(alice, { text: "Uses metric units.", sessionId: session.id, turnId: "t2" });
      assert.deepEqual(same, first, "an unchanged text returns the latest version");
      const second = await store.putMemory(alice, { text: "Uses metric units. Project: Lark." });
      assert.equal(second.version, 2);
      assert.equal(second.sessionId, undefined);
      assert.deepEqual(await store.getMemory(alice), second);
      assert.deepEqual((await store.listMemoryVersions(alice)).map((v) => [v.version, v.text]), [
        [1, "Uses metric units."],
        [2, "Uses metric units. Project: Lark."],
      ]);
      assert.equal(await store.getMemory(bob), undefined, "another owner's memory is apart");
      assert.equal(await store.getMemory({ scope: "session", id: alice.id.replace(/[^A-Za-z0-9_-]/g, "") }), undefined, "scopes are apart");
      await store.putMemory(session, { text: "session note" });
      assert.equal((await store.getMemory(session))?.text, "session note");
      assert.equal(await store.deleteMemory(alice), true);
      assert.equal(await store.getMemory(alice), undefined);
      assert.deepEqual(await store.listMemoryVersions(alice), [], "its versions are gone too");
      assert.equal(await store.deleteMemory(alice), false);
      assert.equal((await store.putMemory(alice, { text: "again" })).version, 1, "a memory written after a delete starts over");
      await store.deleteMemory(alice);
      await store.deleteMemory(session);
      await assert.rejects(store.putMemory({ scope: "team" as never, id: "x" }, { text: "x" }), TypeError);
      await assert.rejects(store.putMemory(alice, { text: 42 as never }), TypeError);
    }),

    def("memory: recall search is by cosine, best first, one owner's, outside the asking session; deleted by owner", async (store) => {
      if (!keeps(store)) return;
      const [alice, bob] = [`alice-${randomUUID()}`, `bob-${randomUUID()}`];
      const [s1, s2, s3] = [`conf-${randomUUID()}`, `conf-${randomUUID()}`, `conf-${randomUUID()}`];
      await store.putRecall([
        entry(alice, s1, "t1", "metric units", [1, 0, 0]),
        entry(alice, s1, "t2", "the project Lark", [0, 1, 0]),
        entry(alice, s2, "t1", "both", [0.6, 0.8, 0]),
        entry(bob, s3, "t1", "bob's own", [1, 0, 0]),
      ]);
      const found = await store.searchRecall({ owner: alice, embedding: [1, 0, 0], limit: 2 });
      assert.deepEqual(found.map((m) => [m.sessionId, m.turnId]), [[s1, "t1"], [s2, "t1"]]);
      assert.ok(Math.abs(found[0]!.score - 1) < 1e-9, "the same direction scores 1");
      assert.ok(Math.abs(found[1]!.score - 0.6) < 1e-6);
      assert.equal(found[0]!.text, "metric units");
      const outside = await store.searchRecall({ owner: alice, embedding: [1, 0, 0], limit: 5, excludeSessionId: s1 });
      assert.deepEqual(outside.map((m) => m.sessionId), [s2], "the asking session's turns are left out");
      // A turn indexed again replaces its entry.
      await store.putRecall([entry(alice, s2, "t1", "now about Lark", [0, 1, 0])]);
      const again = await store.searchRecall({ owner: alice, embedding: [0, 1, 0], limit: 5 });
      assert.equal(again.length, 3);
      assert.deepEqual(new Set(again.slice(0, 2).map((m) => m.text)), new Set(["the project Lark", "now about Lark"]));
      assert.equal(await store.deleteRecall({ owner: alice }), 3);
      assert.deepEqual(await store.searchRecall({ owner: alice, embedding: [1, 0, 0], limit: 5 }), []);
      assert.equal((await store.searchRecall({ owner: bob, embedding: [1, 0, 0], limit: 5 })).length, 1, "bob's entries stay");
      await store.deleteRecall({ owner: bob });
      await assert.rejects(store.searchRecall({ owner: alice, embedding: [], limit: 1 }), TypeError);
    }),

    def("memory: deleting a session deletes its recall entries and its session-scoped working memory", async (store) => {
      if (!keeps(store)) return;
      const owner = `alice-${randomUUID()}`;
      const [gone, kept] = [`conf-${randomUUID()}`, `conf-${randomUUID()}`];
      await store.createSession({ id: gone, owner });
      await store.createSession({ id: kept, owner });
      await store.putRecall([entry(owner, gone, "t1", "from the deleted session", [1, 0]), entry(owner, kept, "t1", "from the kept one", [1, 0.1])]);
      await store.putMemory({ scope: "session", id: gone }, { text: "session note" });
      await store.putMemory({ scope: "owner", id: owner }, { text: "owner note" });
      assert.equal(await store.deleteSession(gone), true);
      assert.deepEqual((await store.searchRecall({ owner, embedding: [1, 0], limit: 5 })).map((m) => m.sessionId), [kept]);
      assert.equal(await store.getMemory({ scope: "session", id: gone }), undefined);
      assert.equal((await store.getMemory({ scope: "owner", id: owner }))?.text, "owner note", "the owner's memory outlives a session");
      assert.equal(await store.deleteRecall({ sessionId: kept }), 1);
      await store.deleteMemory({ scope: "owner", id: owner });
      await store.deleteSession(kept);
    }),
  ];
}
