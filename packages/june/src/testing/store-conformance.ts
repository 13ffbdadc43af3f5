import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type { JuneError } from "../errors/june-error.js";
import { ConflictError, InvalidSessionIdError, SessionBusyError, SessionNotFoundError } from "../stores/errors.js";
import type { ChatStore, JournalEntry, NewJournalEntry, TurnLease } from "../stores/types.js";
import { fileCases } from "./store-file-cases.js";
import { memoryCases } from "./store-memory-cases.js";

/** One case of the store conformance suite: `run()` throws (node:assert) when the store fails it. */
export interface StoreConformanceCase {
  name: string;
  run: () => Promise<void>;
}

/**
 * The cases every `ChatStore` passes, for any test runner. Each case makes a fresh store (and closes it)
 * and uses its own random session ids, so a store backed by a shared database may be reused.
 *
 * @param makeStore Returns the store to check (a fresh one per case, or one that is shared).
 * @example
 * for (const c of storeConformanceCases(() => myStore())) it(c.name, c.run);
 */
export function storeConformanceCases(makeStore: () => ChatStore | Promise<ChatStore>): StoreConformanceCase[] {
  const def = (name: string, body: (store: ChatStore) => Promise<void>): StoreConformanceCase => ({
    name: `store: ${name}`,
    run: async () => {
      const store = await makeStore();
      try {
        await body(store);
      } finally {
        await store.close?.();
      }
    },
  });

  return [
    def("createSession journals a session entry with seq 1 and describes the session", async (store) => {
      const id = newId();
      const info = await store.createSession({ id, metadata: { owner: "ada", tags: ["x"] } });
      assert.equal(info.id, id);
      assert.equal(info.turnCount, 0);
      assert.equal(info.title, undefined);
      assert.deepEqual(info.metadata, { owner: "ada", tags: ["x"] });
      assert.ok(!Number.isNaN(Date.parse(info.createdAt)), "createdAt is an ISO time");
      const entries = await store.read(id);
      assert.equal(entries.length, 1);
      assert.equal(entries[0].type, "session");
      assert.equal(entries[0].seq, 1);
      assert.equal(entries[0].at, info.createdAt);
      assert.deepEqual(await store.getSession(id), info);
    }),

    def("createSession of an existing id fails with ConflictError and keeps the journal", async (store) => {
      const id = newId();
      await store.createSession({ id, metadata: { n: 1 } });
      await store.append(id, [turnStart("t1", "hi")], { expectedSeq: 1 });
      await assertJuneError(() => store.createSession({ id }), ConflictError);
      assert.equal((await store.read(id)).length, 2);
      assert.deepEqual((await store.getSession(id))?.metadata, { n: 1 });
    }),

    def("createSession journals the owner; getSession and listSessions give it; listSessions({ owner }) lists only that owner's", async (store) => {
      const [alice, bob] = [`alice-${randomUUID()}`, `bob-${randomUUID()}`];
      const [a1, a2, b1, none] = [newId(), newId(), newId(), newId()];
      const info = await store.createSession({ id: a1, owner: alice, metadata: { owner: "not this one" } });
      assert.equal(info.owner, alice);
      assert.deepEqual(info.metadata, { owner: "not this one" }, "metadata is the app's own, apart from the owner");
      await store.createSession({ id: b1, owner: bob });
      await store.createSession({ id: a2, owner: alice });
      await store.createSession({ id: none });
      // a1's turn comes after a2 was made on the clock too (stores order by time, to the millisecond), so a1 is
      // the newest of alice's however fast this runs.
      const a2At = Date.parse((await store.getSession(a2))!.updatedAt);
      while (Date.now() <= a2At) await new Promise((resolve) => setTimeout(resolve, 1));
      await store.append(a1, [turnStart("t1", "alice's first")], { expectedSeq: 1 });
      const [entry] = await store.read(a1);
      assert.equal(entry.type === "session" && entry.owner, alice, "the owner is journaled in the session entry");
      assert.equal((await store.getSession(a1))?.owner, alice);
      assert.equal((await store.getSession(none))?.owner, undefined);
      assert.deepEqual((await store.listSessions({ owner: alice })).map((s) => s.id), [a1, a2], "alice's, newest first");
      assert.deepEqual((await store.listSessions({ owner: bob })).map((s) => s.id), [b1]);
      assert.deepEqual((await store.listSessions({ owner: alice, limit: 1 })).map((s) => s.id), [a1]);
      const before = (await store.getSession(a1))!.updatedAt;
      const older = await store.listSessions({ owner: alice, before });
      assert.ok(older.every((s) => s.id === a2), "before applies within the owner's sessions");
      assert.deepEqual((await store.listSessions({ owner: `nobody-${randomUUID()}` })), []);
      const everyone = (await store.listSessions()).map((s) => s.id);
      for (const id of [a1, a2, b1, none]) assert.ok(everyone.includes(id), "no owner lists every session");
      await assert.rejects(store.createSession({ id: newId(), owner: "" }), TypeError);
      await assert.rejects(store.createSession({ id: newId(), owner: 7 as unknown as string }), TypeError);
      await assert.rejects(store.listSessions({ owner: "" }), TypeError);
    }),

    def("an owner is kept exactly: one that is not well-formed Unicode, or holds NUL, is refused; U+FFFD and astral owners are their own", async (store) => {
      for (const owner of ["\ud800", "\udc00", `a\udbffb-${randomUUID()}`, `\udfff\ud800-${randomUUID()}`, "a\u0000b"]) {
        const id = newId();
        await assert.rejects(store.createSession({ id, owner }), (error: unknown) => error instanceof TypeError && /owner/.test(error.message), `createSession refuses ${JSON.stringify(owner)}`);
        assert.equal(await store.getSession(id), undefined, "nothing is created");
        await assert.rejects(store.listSessions({ owner }), TypeError, `listSessions refuses ${JSON.stringify(owner)}`);
      }
      const tag = randomUUID();
      const [replacement, astral] = [`\ufffd-${tag}`, `\ud83d\ude00-${tag}`];
      const [r, a] = [newId(), newId()];
      await store.createSession({ id: r, owner: replacement });
      await store.createSession({ id: a, owner: astral });
      assert.equal((await store.getSession(r))?.owner, replacement);
      assert.equal((await store.getSession(a))?.owner, astral, "a surrogate pair is kept as it is");
      assert.deepEqual((await store.listSessions({ owner: replacement })).map((s) => s.id), [r]);
      assert.deepEqual((await store.listSessions({ owner: astral })).map((s) => s.id), [a]);
    }),

    def("getSession of an unknown id is undefined", async (store) => {
      assert.equal(await store.getSession(newId()), undefined);
    }),

    def("append numbers entries from expectedSeq + 1, sets `at`, and read returns them", async (store) => {
      const id = newId();
      await store.createSession({ id });
      const first = await store.append(id, [turnStart("t1", "hello")], { expectedSeq: 1 });
      assert.equal(first.length, 1);
      assert.equal(first[0].seq, 2);
      assert.ok(!Number.isNaN(Date.parse(first[0].at)));
      const given = "2001-02-03T04:05:06.007Z";
      const more = await store.append(
        id,
        [
          { type: "steer", turnId: "t1", input: "shorter", atChar: 3 },
          { type: "turn-end", turnId: "t1", status: "completed", text: "hi!", at: given },
        ],
        { expectedSeq: 2, sync: true },
      );
      assert.deepEqual(
        more.map((e) => e.seq),
        [3, 4],
      );
      assert.equal(more[1].at, given, "a given `at` is kept");
      const all = await store.read(id);
      assert.deepEqual(
        all.map((e) => [e.seq, e.type]),
        [
          [1, "session"],
          [2, "turn-start"],
          [3, "steer"],
          [4, "turn-end"],
        ],
      );
      assert.deepEqual(all.slice(1), [...first, ...more]);
      assert.deepEqual(all[1], { ...turnStart("t1", "hello"), at: first[0].at, seq: 2 });
    }),

    def("append is atomic: an invalid entry in a batch writes none of it", async (store) => {
      const id = newId();
      await store.createSession({ id });
      const bad = [
        turnStart("t1", "a"),
        { type: "nonsense", turnId: "t1" } as unknown as NewJournalEntry,
      ];
      await assert.rejects(store.append(id, bad, { expectedSeq: 1 }), TypeError);
      const cyclic: Record<string, unknown> = { type: "feedback", turnId: "t1", score: 1 };
      cyclic.self = cyclic;
      await assert.rejects(
        store.append(id, [turnStart("t1", "a"), cyclic as unknown as NewJournalEntry], { expectedSeq: 1 }),
        TypeError,
      );
      await assert.rejects(
        store.append(id, [{ type: "session", id } as NewJournalEntry], { expectedSeq: 1 }),
        TypeError,
        "session entries come from createSession only",
      );
      assert.equal((await store.read(id)).length, 1);
      const ok = await store.append(id, [turnStart("t1", "a"), turnEnd("t1")], { expectedSeq: 1 });
      assert.deepEqual(
        ok.map((e) => e.seq),
        [2, 3],
      );
    }),

    def("append refuses an entry naming a turn that never started (what its read would refuse), and writes nothing", async (store) => {
      const id = newId();
      await store.createSession({ id });
      await store.append(id, [turnStart("t1", "a"), turnEnd("t1")], { expectedSeq: 1 });
      const unlinked: [NewJournalEntry, RegExp][] = [
        [{ type: "feedback", turnId: "ghost", score: 1 }, /entry 0 \(feedback: `turnId` "ghost" names no earlier turn\)/],
        [{ type: "turn-end", turnId: "ghost", status: "completed" }, /turn-end: `turnId` "ghost"/],
        [{ type: "steer", turnId: "ghost", input: "x", atChar: 0 }, /steer: `turnId` "ghost"/],
        [{ type: "turn-suspend", turnId: "ghost", requests: [] }, /turn-suspend: `turnId` "ghost"/],
        [{ type: "summary", throughTurnId: "ghost", text: "s" }, /summary: `throughTurnId` "ghost"/],
        [{ type: "checkout", turnId: "ghost" }, /checkout: `turnId` "ghost"/],
        [{ type: "approval", turnId: "ghost", requestId: "r1", toolName: "deploy", approved: true }, /approval: `turnId` "ghost"/],
        [{ ...turnStart("t2", "b"), parentTurnId: "ghost" }, /turn-start: `parentTurnId` "ghost"/],
      ];
      for (const [entry, message] of unlinked) {
        await assert.rejects(store.append(id, [entry], { expectedSeq: 3 }), (error: unknown) => {
          assert.ok(error instanceof TypeError, `${entry.type}: a TypeError, got ${String(error)}`);
          assert.match(error.message, message);
          return true;
        });
      }
      // A later entry of the batch may name a turn an earlier one starts; one that names a later one may not.
      await assert.rejects(store.append(id, [{ type: "feedback", turnId: "t2", score: 1 }, turnStart("t2", "b")], { expectedSeq: 3 }), TypeError);
      assert.equal((await store.read(id)).length, 3, "nothing was written");
      // Turns that started (earlier, or earlier in the same batch) are fine, and the journal reads back whole.
      await store.append(id, [{ type: "feedback", turnId: "t1", score: 1 }, { ...turnStart("t2", "b"), parentTurnId: "t1" }, turnEnd("t2")], {
        expectedSeq: 3,
      });
      await store.append(id, [{ type: "summary", throughTurnId: "t2", text: "s" }, { type: "checkout", turnId: "t1" }], { expectedSeq: 6 });
      assert.equal((await store.read(id)).length, 8);
      // Another store over the same data (a process that never read this session) checks against what is stored.
      const other = await makeStore();
      try {
        if (await other.getSession(id)) {
          await other.append(id, [{ type: "feedback", turnId: "t2", score: -1 }], { expectedSeq: 8 });
          await assert.rejects(other.append(id, [{ type: "feedback", turnId: "ghost", score: 1 }], { expectedSeq: 9 }), TypeError);
          assert.equal((await store.read(id)).length, 9);
        }
      } finally {
        if (other !== store) await other.close?.();
      }
    }),

    def("append with a stale or future expectedSeq fails with ConflictError and writes nothing", async (store) => {
      const id = newId();
      await store.createSession({ id });
      await store.append(id, [turnStart("t1", "a")], { expectedSeq: 1 });
      const stale = await assertJuneError(
        () => store.append(id, [turnEnd("t1")], { expectedSeq: 1 }),
        ConflictError,
      );
      assert.equal((stale as JuneError & { sessionId?: string }).sessionId, id);
      await assertJuneError(() => store.append(id, [turnEnd("t1")], { expectedSeq: 5 }), ConflictError);
      await assertJuneError(() => store.append(id, [turnEnd("t1")], { expectedSeq: 0 }), ConflictError);
      assert.equal((await store.read(id)).length, 2);
      await store.append(id, [turnEnd("t1")], { expectedSeq: 2 });
      assert.equal((await store.read(id)).length, 3);
    }),

    def("concurrent appends with the same expectedSeq: exactly one wins", async (store) => {
      const id = newId();
      await store.createSession({ id });
      const results = await Promise.allSettled(
        Array.from({ length: 6 }, (_, i) =>
          store.append(id, [turnStart(`t${i}`, `input ${i}`), turnEnd(`t${i}`)], { expectedSeq: 1 }),
        ),
      );
      const won = results.filter((r) => r.status === "fulfilled");
      assert.equal(won.length, 1);
      for (const r of results) {
        if (r.status === "rejected") assert.ok(ConflictError.isInstance(r.reason), String(r.reason));
      }
      const entries = await store.read(id);
      assert.deepEqual(
        entries.map((e) => e.seq),
        [1, 2, 3],
      );
    }),

    def("an empty append checks expectedSeq and writes nothing", async (store) => {
      const id = newId();
      await store.createSession({ id });
      assert.deepEqual(await store.append(id, [], { expectedSeq: 1 }), []);
      await assertJuneError(() => store.append(id, [], { expectedSeq: 3 }), ConflictError);
      assert.equal((await store.read(id)).length, 1);
    }),

    def("read fromSeq returns the entries from that seq on", async (store) => {
      const id = newId();
      await store.createSession({ id });
      await store.append(id, [turnStart("t1", "a"), turnEnd("t1"), turnStart("t2", "b"), turnEnd("t2")], {
        expectedSeq: 1,
      });
      assert.deepEqual(
        (await store.read(id, { fromSeq: 3 })).map((e) => e.seq),
        [3, 4, 5],
      );
      assert.deepEqual(
        (await store.read(id, { fromSeq: 5 })).map((e) => e.type),
        ["turn-end"],
      );
      assert.deepEqual(await store.read(id, { fromSeq: 6 }), []);
      assert.equal((await store.read(id, { fromSeq: 1 })).length, 5);
      assert.equal((await store.read(id, { fromSeq: 0 })).length, 5);
      await assert.rejects(store.read(id, { fromSeq: 2.5 }), TypeError);
    }),

    def("stored entries do not change when the caller mutates what it passed or got back", async (store) => {
      const id = newId();
      await store.createSession({ id });
      const entry = turnStart("t1", "original");
      const [stored] = await store.append(id, [entry], { expectedSeq: 1 });
      entry.input = "changed";
      entry.context.turnIds.push("x");
      try {
        (stored as { input: string }).input = "changed too";
      } catch {
        // frozen: fine
      }
      const [, read] = await store.read(id);
      assert.equal((read as { input: string }).input, "original");
      assert.deepEqual((read as { context: { turnIds: string[] } }).context.turnIds, []);
    }),

    def("unknown sessions: append, read and acquireTurn fail with SessionNotFoundError", async (store) => {
      const id = newId();
      const err = await assertJuneError(() => store.append(id, [turnStart("t", "a")], { expectedSeq: 1 }), SessionNotFoundError);
      assert.equal((err as JuneError & { sessionId?: string }).sessionId, id);
      await assertJuneError(() => store.read(id), SessionNotFoundError);
      await assertJuneError(() => store.acquireTurn(id), SessionNotFoundError);
      assert.equal(await store.deleteSession(id), false);
      assert.equal(await store.getSession(id), undefined);
    }),

    def("invalid session ids are refused with InvalidSessionIdError", async (store) => {
      const bad: unknown[] = ["../x", "a/b", "", "x".repeat(129), "a.b", "a b", "..", "a\u0000b", "é", 42, null, undefined];
      for (const id of bad) {
        const sid = id as string;
        await assertJuneError(() => store.createSession({ id: sid }), InvalidSessionIdError, `createSession(${String(id)})`);
        await assertJuneError(() => store.getSession(sid), InvalidSessionIdError);
        await assertJuneError(() => store.deleteSession(sid), InvalidSessionIdError);
        await assertJuneError(() => store.append(sid, [turnStart("t", "a")], { expectedSeq: 1 }), InvalidSessionIdError);
        await assertJuneError(() => store.read(sid), InvalidSessionIdError);
        await assertJuneError(() => store.acquireTurn(sid), InvalidSessionIdError);
      }
      const longest = `${newId()}${"a".repeat(128)}`.slice(0, 128);
      const info = await store.createSession({ id: longest });
      assert.equal(info.id, longest);
      assert.equal(await store.deleteSession(longest), true);
    }),

    def("a turn lease is exclusive until released, then can be taken again", async (store) => {
      const id = newId();
      await store.createSession({ id });
      const lease = await store.acquireTurn(id);
      assert.equal(lease.sessionId, id);
      const busy = await assertJuneError(() => store.acquireTurn(id), SessionBusyError);
      assert.equal((busy as JuneError & { sessionId?: string }).sessionId, id);
      await store.releaseTurn(lease);
      const again = await store.acquireTurn(id);
      assert.notEqual(again.token, lease.token);
      // Releasing the old lease a second time must not free the new holder's.
      await store.releaseTurn(lease);
      await assertJuneError(() => store.acquireTurn(id), SessionBusyError);
      await store.releaseTurn(again);
      await store.releaseTurn(await store.acquireTurn(id));
    }),

    def("leases are per session", async (store) => {
      const a = newId();
      const b = newId();
      await store.createSession({ id: a });
      await store.createSession({ id: b });
      const la = await store.acquireTurn(a);
      const lb = await store.acquireTurn(b);
      await store.releaseTurn(la);
      await store.releaseTurn(lb);
    }),

    def("a lease with ttlMs expires and can be taken over", async (store) => {
      const id = newId();
      await store.createSession({ id });
      const lease = await store.acquireTurn(id, { ttlMs: 30 });
      await sleep(80);
      const next = await store.acquireTurn(id, { ttlMs: 60_000 });
      await store.releaseTurn(lease); // the expired holder's release leaves the new lease alone
      await assertJuneError(() => store.acquireTurn(id), SessionBusyError);
      await store.releaseTurn(next);
    }),

    def("listSessions: newest updatedAt first, with title, turn count and metadata", async (store) => {
      const [a, b, c] = [newId(), newId(), newId()];
      const base = Date.UTC(2190, 0, 1) + Math.floor(Math.random() * 1e9);
      const at = (s: number) => new Date(base + s * 1000).toISOString();
      for (const id of [a, b, c]) await store.createSession({ id, metadata: { name: id } });
      const long = `  A long   first\ninput ${"word ".repeat(40)}`;
      await store.append(c, [{ ...turnStart("c1", long), at: at(1) }], { expectedSeq: 1 });
      await store.append(a, [{ ...turnStart("a1", "first of a"), at: at(2) }], { expectedSeq: 1 });
      await store.append(b, [{ ...turnStart("b1", "only b"), at: at(3) }], { expectedSeq: 1 });
      await store.append(
        a,
        [
          { ...turnEnd("a1"), at: at(4) },
          { ...turnStart("a2", "second of a"), at: at(5) },
        ],
        { expectedSeq: 2 },
      );
      const listed = (await store.listSessions()).filter((s) => [a, b, c].includes(s.id));
      assert.deepEqual(
        listed.map((s) => s.id),
        [a, b, c],
      );
      const [la, lb, lc] = listed;
      assert.equal(la.turnCount, 2);
      assert.equal(la.title, "first of a");
      assert.equal(la.updatedAt, at(5));
      assert.deepEqual(la.metadata, { name: a });
      assert.equal(lb.turnCount, 1);
      assert.equal(lc.updatedAt, at(1));
      assert.ok(lc.title && lc.title.length <= 80, `title cut: ${lc.title}`);
      assert.ok(lc.title.startsWith("A long first input word"), `whitespace collapsed: ${lc.title}`);
      assert.deepEqual(await store.getSession(a), la);
    }),

    def("listSessions: limit and before page through sessions", async (store) => {
      const ids = [newId(), newId(), newId(), newId()];
      const base = Date.UTC(2150, 0, 1) + Math.floor(Math.random() * 1e9);
      const at = (s: number) => new Date(base + s * 1000).toISOString();
      for (const [i, id] of ids.entries()) {
        await store.createSession({ id });
        await store.append(id, [{ ...turnStart("t", `session ${i}`), at: at(i) }], { expectedSeq: 1 });
      }
      // ids[3] newest .. ids[0] oldest, all in (base - 1s, base + 4s)
      const page1 = await store.listSessions({ before: at(4), limit: 2 });
      assert.deepEqual(
        page1.map((s) => s.id),
        [ids[3], ids[2]],
      );
      const page2 = await store.listSessions({ before: page1[1].updatedAt, limit: 2 });
      assert.deepEqual(
        page2.map((s) => s.id),
        [ids[1], ids[0]],
      );
      const page3 = (await store.listSessions({ before: page2[1].updatedAt })).filter((s) => ids.includes(s.id));
      assert.deepEqual(page3, []);
      assert.deepEqual(await store.listSessions({ limit: 0 }), []);
      await assert.rejects(store.listSessions({ limit: -1 }), TypeError);
      await assert.rejects(store.listSessions({ before: "not a time" }), TypeError);
    }),

    def("deleteSession removes the session and its journal; the id can be used again", async (store) => {
      const id = newId();
      await store.createSession({ id });
      await store.append(id, [turnStart("t1", "a")], { expectedSeq: 1 });
      const lease = await store.acquireTurn(id);
      assert.equal(await store.deleteSession(id), true);
      assert.equal(await store.getSession(id), undefined);
      await assertJuneError(() => store.read(id), SessionNotFoundError);
      assert.ok(!(await store.listSessions()).some((s) => s.id === id));
      assert.equal(await store.deleteSession(id), false);
      await store.releaseTurn(lease);
      const info = await store.createSession({ id });
      assert.equal(info.turnCount, 0);
      assert.equal((await store.read(id)).length, 1);
      const fresh = await store.acquireTurn(id);
      await store.releaseTurn(fresh);
    }),

    def("getSession and listSessions follow appends", async (store) => {
      const id = newId();
      await store.createSession({ id });
      const before = await store.getSession(id);
      assert.equal(before?.turnCount, 0);
      let seq = 1;
      for (let i = 0; i < 3; i++) {
        const written = await store.append(id, [turnStart(`t${i}`, `q${i}`), turnEnd(`t${i}`)], { expectedSeq: seq });
        seq = written[written.length - 1].seq;
        const info = await store.getSession(id);
        assert.equal(info?.turnCount, i + 1);
        assert.equal(info?.title, "q0");
        assert.equal(info?.updatedAt, written[1].at);
        const listed = (await store.listSessions()).find((s) => s.id === id);
        assert.deepEqual(listed, info);
      }
    }),

    def("a rename entry titles the session, before or after its first turn; the latest wins", async (store) => {
      const [early, late] = [newId(), newId()];
      await store.createSession({ id: early });
      await store.append(early, [rename("Named first")], { expectedSeq: 1 });
      assert.equal((await store.getSession(early))?.title, "Named first");
      await store.append(early, [turnStart("t1", "the first input"), turnEnd("t1")], { expectedSeq: 2 });
      assert.equal((await store.getSession(early))?.title, "Named first", "a first turn after a rename keeps the name");

      await store.createSession({ id: late });
      await store.append(late, [turnStart("t1", "deploy the docs"), turnEnd("t1")], { expectedSeq: 1 });
      assert.equal((await store.getSession(late))?.title, "deploy the docs");
      await store.append(late, [rename("Docs deploy, Tuesday")], { expectedSeq: 3 });
      assert.equal((await store.getSession(late))?.title, "Docs deploy, Tuesday");
      await store.append(late, [rename("one"), rename("two"), turnStart("t2", "again")], { expectedSeq: 4 });
      const info = await store.getSession(late);
      assert.equal(info?.title, "two", "the latest rename of a batch wins");
      assert.equal(info?.turnCount, 2);
      const listed = (await store.listSessions()).find((s) => s.id === late);
      assert.deepEqual(listed, info);
      const entries = await store.read(late);
      assert.deepEqual(
        entries.filter((e) => e.type === "rename").map((e) => (e.type === "rename" ? e.title : "")),
        ["Docs deploy, Tuesday", "one", "two"],
      );
      await assert.rejects(store.append(late, [{ type: "rename", title: "" }], { expectedSeq: 7 }), TypeError);
    }),

    ...checkpointCases(def, makeStore),
    ...leasedAppendCases(def, makeStore),
    ...fileCases(def),
    ...memoryCases(def),
  ];
}

function newId(): string {
  return `conf-${randomUUID()}`;
}

function rename(title: string): Extract<NewJournalEntry, { type: "rename" }> {
  return { type: "rename", title };
}

function turnStart(turnId: string, input: string): Extract<NewJournalEntry, { type: "turn-start" }> {
  return { type: "turn-start", turnId, input, context: { builder: "full", turnIds: [] } };
}

function turnEnd(turnId: string): NewJournalEntry {
  return {
    type: "turn-end",
    turnId,
    status: "completed",
    text: "ok",
    metadata: { responder: { kind: "custom" }, usage: { inputTokens: 3 } },
  };
}

/** A June error class: `isInstance` matches by its marker, so errors from the store's own copy of June count. */
interface ErrorKind {
  readonly name: string;
  isInstance(error: unknown): boolean;
}

async function assertJuneError(fn: () => Promise<unknown>, kind: ErrorKind, what?: string): Promise<unknown> {
  try {
    await fn();
  } catch (error) {
    assert.ok(kind.isInstance(error), `${what ?? "call"}: expected ${kind.name}, got ${String(error)}`);
    return error;
  }
  assert.fail(`${what ?? "call"}: expected ${kind.name}, but it succeeded`);
}


type Def = (name: string, body: (store: ChatStore) => Promise<void>) => StoreConformanceCase;

/** The checkpoint cases, for stores that keep checkpoints (`putCheckpoint` and the rest). */
function checkpointCases(def: Def, makeStore: () => ChatStore | Promise<ChatStore>): StoreConformanceCase[] {
  const keeps = (store: ChatStore): store is ChatStore & Required<Pick<ChatStore, "putCheckpoint" | "getCheckpoint" | "listCheckpoints" | "deleteCheckpoint">> => {
    const methods = [store.putCheckpoint, store.getCheckpoint, store.listCheckpoints, store.deleteCheckpoint];
    const count = methods.filter((m) => typeof m === "function").length;
    assert.ok(count === 0 || count === 4, "a store that keeps checkpoints has all four checkpoint methods");
    return count === 4;
  };
  return [
    def("checkpoints: write, read back, replace, list, delete", async (store) => {
      if (!keeps(store)) return;
      const id = newId();
      await store.createSession({ id });
      assert.equal(await store.getCheckpoint(id, "t1"), undefined);
      assert.deepEqual(await store.listCheckpoints(id), []);
      const data = JSON.stringify({ input: "deploy to prod", quote: '"', nl: "\n", emoji: "\u{1F680}" });
      await store.putCheckpoint(id, "t1", data);
      const first = await store.getCheckpoint(id, "t1");
      assert.equal(first?.turnId, "t1");
      assert.equal(first?.data, data);
      assert.ok(!Number.isNaN(Date.parse(first!.updatedAt)), "updatedAt is an ISO time");
      await store.putCheckpoint(id, "t1", "second");
      assert.equal((await store.getCheckpoint(id, "t1"))?.data, "second");
      await store.putCheckpoint(id, "t2", "other");
      assert.deepEqual((await store.listCheckpoints(id)).map((c) => [c.turnId, c.data]), [["t1", "second"], ["t2", "other"]]);
      assert.equal(await store.deleteCheckpoint(id, "t1"), true);
      assert.equal(await store.deleteCheckpoint(id, "t1"), false);
      assert.equal(await store.getCheckpoint(id, "t1"), undefined);
      assert.deepEqual((await store.listCheckpoints(id)).map((c) => c.turnId), ["t2"]);
      // The journal is untouched by checkpoints.
      assert.equal((await store.read(id)).length, 1);
    }),

    def("checkpoints: append with deleteCheckpoint journals the turn-end and deletes the checkpoint together", async (store) => {
      if (!keeps(store)) return;
      const id = newId();
      await store.createSession({ id });
      await store.append(id, [turnStart("t1", "go")], { expectedSeq: 1 });
      await store.putCheckpoint(id, "t1", "state");
      await store.putCheckpoint(id, "t9", "another turn's");
      // A conflicting append writes nothing and deletes nothing.
      await assertJuneError(() => store.append(id, [turnEnd("t1")], { expectedSeq: 1, deleteCheckpoint: "t1" }), ConflictError);
      assert.equal((await store.getCheckpoint(id, "t1"))?.data, "state");
      const written = await store.append(id, [turnEnd("t1")], { expectedSeq: 2, sync: true, deleteCheckpoint: "t1" });
      assert.equal(written[0].type, "turn-end");
      assert.equal(await store.getCheckpoint(id, "t1"), undefined);
      assert.equal((await store.getCheckpoint(id, "t9"))?.data, "another turn's");
      assert.equal((await store.read(id)).length, 3);
    }),

    def("checkpoints: go with their session; unknown sessions and bad ids are refused", async (store) => {
      if (!keeps(store)) return;
      const id = newId();
      await store.createSession({ id });
      await store.putCheckpoint(id, "t1", "state");
      await store.deleteSession(id);
      await store.createSession({ id });
      assert.equal(await store.getCheckpoint(id, "t1"), undefined);
      await assertJuneError(() => store.putCheckpoint(newId(), "t1", "x"), SessionNotFoundError);
      await assertJuneError(() => store.putCheckpoint("../x", "t1", "x"), InvalidSessionIdError);
      await assert.rejects(() => store.putCheckpoint(id, "../t1", "x"), TypeError);
      await assert.rejects(() => store.putCheckpoint(id, "t1", 42 as never), TypeError);
    }),

    def("checkpoints: two writers of one turn's checkpoint leave one of them whole", async (store) => {
      if (!keeps(store)) return;
      const other = await makeStore();
      try {
        const id = newId();
        await store.createSession({ id });
        // A second store over the same data when the store shares it (files, databases); else two calls at once.
        const second = (await other.getSession(id)) ? other : store;
        const big = (tag: string) => JSON.stringify({ tag, pad: tag.repeat(50_000) });
        const values = Array.from({ length: 6 }, (_, i) => big(String.fromCharCode(97 + i)));
        await Promise.all(values.map((v, i) => (i % 2 === 0 ? store : second).putCheckpoint!(id, "t1", v)));
        const read = await store.getCheckpoint(id, "t1");
        assert.ok(values.includes(read!.data), "the checkpoint is one writer's, whole");
        assert.equal((await second.getCheckpoint!(id, "t1"))?.data, read!.data);
        assert.equal((await store.listCheckpoints(id)).length, 1);
      } finally {
        if (other !== store) await other.close?.();
      }
    }),
  ];
}

/** The cases of `acquireTurnAndAppend`, for stores that have it (the others pass them as they are). */
function leasedAppendCases(def: Def, makeStore: () => ChatStore | Promise<ChatStore>): StoreConformanceCase[] {
  const has = (store: ChatStore): store is ChatStore & Required<Pick<ChatStore, "acquireTurnAndAppend">> =>
    typeof store.acquireTurnAndAppend === "function";
  return [
    def("acquireTurnAndAppend: takes the lease and appends together, or does neither", async (store) => {
      if (!has(store)) return;
      const id = newId();
      await store.createSession({ id });
      const { lease, entries } = await store.acquireTurnAndAppend(id, [turnStart("t1", "hi")], { expectedSeq: 1 });
      assert.equal(lease.sessionId, id);
      assert.deepEqual(entries.map((e) => [e.seq, e.type]), [[2, "turn-start"]]);
      assert.ok(!Number.isNaN(Date.parse(entries[0].at)));
      assert.deepEqual((await store.read(id)).map((e) => e.seq), [1, 2]);
      await assertJuneError(() => store.acquireTurn(id), SessionBusyError, "acquireTurn while the lease is held");
      // Held elsewhere: nothing written, the holder's lease kept.
      await assertJuneError(() => store.acquireTurnAndAppend(id, [turnEnd("t1")], { expectedSeq: 2 }), SessionBusyError);
      assert.equal((await store.read(id)).length, 2);
      // Released like any lease, with the turn's end.
      await store.append(id, [turnEnd("t1")], { expectedSeq: 2, sync: true, endsLease: lease });
      await store.releaseTurn(lease);
      await store.releaseTurn(await store.acquireTurn(id));
      // The journal moved on: nothing written, no lease left.
      await assertJuneError(() => store.acquireTurnAndAppend(id, [turnStart("t2", "again")], { expectedSeq: 2 }), ConflictError);
      assert.equal((await store.read(id)).length, 3);
      await store.releaseTurn(await store.acquireTurn(id));
      // Bad entries: a TypeError, nothing written, no lease left.
      await assert.rejects(store.acquireTurnAndAppend(id, [{ type: "nonsense" } as unknown as NewJournalEntry], { expectedSeq: 3 }), TypeError);
      assert.equal((await store.read(id)).length, 3);
      await store.releaseTurn(await store.acquireTurn(id));
      await assertJuneError(() => store.acquireTurnAndAppend(newId(), [turnStart("t", "a")], { expectedSeq: 1 }), SessionNotFoundError);
      await assertJuneError(() => store.acquireTurnAndAppend("../x", [turnStart("t", "a")], { expectedSeq: 1 }), InvalidSessionIdError);
    }),

    def("acquireTurnAndAppend: a lease with ttlMs expires and can be taken over", async (store) => {
      if (!has(store)) return;
      const id = newId();
      await store.createSession({ id });
      const { lease } = await store.acquireTurnAndAppend(id, [turnStart("t1", "a")], { expectedSeq: 1, ttlMs: 30 });
      await sleep(80);
      const next = await store.acquireTurnAndAppend(id, [turnStart("t2", "b")], { expectedSeq: 2, ttlMs: 60_000 });
      await store.releaseTurn(lease); // the expired holder's release leaves the new lease alone
      await assertJuneError(() => store.acquireTurn(id), SessionBusyError);
      await store.releaseTurn(next.lease);
      assert.deepEqual((await store.read(id)).map((e) => e.seq), [1, 2, 3]);
    }),

    def("acquireTurnAndAppend: at once with others and with acquireTurn, one holder, and only its entries", async (store) => {
      if (!has(store)) return;
      const other = await makeStore();
      try {
        // A second store over the same data when the store shares it (files, databases); else calls at once.
        const id = newId();
        await store.createSession({ id });
        const second = (await other.getSession(id)) ? other : store;
        for (let round = 0; round < 3; round++) {
          const seq: number = (await store.read(id)).length;
          const calls: Promise<{ lease: TurnLease; turnId?: string }>[] = [];
          for (let i = 0; i < 6; i++) {
            const on = i % 2 === 0 ? store : second;
            const turnId = `r${round}c${i}`;
            calls.push(
              i % 3 === 2
                ? on.acquireTurn(id).then((lease) => ({ lease }))
                : has(on)
                  ? on.acquireTurnAndAppend(id, [turnStart(turnId, "x")], { expectedSeq: seq }).then(({ lease }) => ({ lease, turnId }))
                  : on.acquireTurn(id).then((lease) => ({ lease })),
            );
          }
          const results = await Promise.allSettled(calls);
          const won = results.flatMap((r) => (r.status === "fulfilled" ? [r.value] : []));
          assert.equal(won.length, 1, "exactly one call holds the lease");
          for (const r of results) {
            if (r.status === "rejected") assert.ok(SessionBusyError.isInstance(r.reason) || ConflictError.isInstance(r.reason), String(r.reason));
          }
          const after: JournalEntry[] = await store.read(id);
          const winner = won[0]!;
          assert.deepEqual(
            after.slice(seq).map((e) => (e as { turnId?: string }).turnId),
            winner.turnId === undefined ? [] : [winner.turnId],
            "the journal holds the holder's entries only",
          );
          await store.releaseTurn(winner.lease);
          await store.releaseTurn(await store.acquireTurn(id));
        }
      } finally {
        if (other !== store) await other.close?.();
      }
    }),
  ];
}
