import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
// A timer between gc() rounds, not setImmediate: work V8 does off the main thread may hold an object a moment longer (see session-memory.test.ts).
import { setTimeout as sleep } from "node:timers/promises";
const tick = () => sleep(20);
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { createChat, fileStore, type ChatStore, type Responder } from "june/chat";
import { createChatHandler } from "june/server";
import { afterEach, describe, expect, it } from "vitest";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

const echo: Responder = { respond: ({ input }) => ({ result: Promise.resolve({ text: `re: ${input}` }) }) };

/** A fileStore that keeps a weak reference to every entry it reads back (each read parses anew). */
function watchedStore(dir: string): { store: ChatStore; alive: () => number } {
  const inner = fileStore(dir, { fsync: false });
  const refs: WeakRef<object>[] = [];
  const store: ChatStore = {
    ...inner,
    async read(id, options) {
      const entries = await inner.read(id, options);
      for (const entry of entries) refs.push(new WeakRef(entry));
      return entries;
    },
  };
  return { store, alive: () => refs.filter((ref) => ref.deref() !== undefined).length };
}

const post = (handler: (request: Request) => Promise<Response>, path: string, body: unknown) =>
  handler(new Request(`http://test.local${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }));

describe("the handler's memory", () => {
  it("an ended turn kept for replay holds its events, not the session it ran in", async () => {
    const dir = await mkdtemp(join(tmpdir(), "june-handler-memory-"));
    dirs.push(dir);
    const { store, alive } = watchedStore(dir);
    const handler = createChatHandler(createChat({ responder: echo, store }));
    expect((await post(handler, "/sessions", { id: "long" })).status).toBe(201);
    const turnIds: string[] = [];
    for (let i = 0; i < 5; i++) {
      const response = await post(handler, "/sessions/long/turns", { input: `question ${i} ${"x".repeat(1_000)}` });
      expect(response.status).toBe(200);
      const text = await response.text();
      expect(text).toContain('"status":"completed"');
      turnIds.push(/"turnId":"([^"]+)"/.exec(text)![1]);
    }
    for (let i = 0; i < 6; i++) {
      await tick();
      gc();
    }
    // Every session opened for a request is gone with its journal: five ended turns hold none of it.
    expect(alive()).toBe(0);

    // What replay needs is still there.
    const replay = await handler(new Request(`http://test.local/turns/${turnIds[0]}/events`));
    expect(replay.status).toBe(200);
    const events = await replay.text();
    expect(events).toContain("re: question 0");
    expect(events).toContain('"status":"completed"');
    // And an ended turn decides nothing.
    const late = await post(handler, `/sessions/long/turns/${turnIds[0]}/approve`, { approvalId: "a" });
    expect(late.status).toBe(409);
    expect((await post(handler, `/sessions/long/turns/${turnIds[0]}/cancel`, {})).status).toBe(409);
    expect((await post(handler, `/sessions/long/turns/${turnIds[0]}/steer`, { input: "more" })).status).toBe(409);
  });
});
