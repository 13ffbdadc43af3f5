/**
 * A session's memory is its journal's data and a small constant: nothing a context builder works out for an
 * open session outlives the session object. Over memoryStore (which keeps every record for as long as it
 * lives), a chat that served sessions and dropped them (what the HTTP handler does on every request) must
 * keep nothing of what their contexts built. Run in a child process with `--expose-gc`, on the BUILT package.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, packageDir } from "../cli/__fixtures__/built-bin.js";

const dir = mkdtempSync(join(tmpdir(), "june-session-memory-"));
beforeAll(() => ensureBuilt(), 180_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(body: string): string {
  const chat = pathToFileURL(join(packageDir, "dist/chat/index.js")).href;
  const testing = pathToFileURL(join(packageDir, "dist/testing/index.js")).href;
  const file = join(dir, `script-${Math.random().toString(36).slice(2)}.mjs`);
  writeFileSync(
    file,
    `import { createChat, memoryStore, fullContext, summarizedContext } from ${JSON.stringify(chat)};
import { scriptedModel } from ${JSON.stringify(testing)};
// A timer between collections, not setImmediate: on Node 24 a turn was now and then still reachable after four
// gc()+setImmediate rounds (5 runs in 40, always the ninth turn) and free a few milliseconds later; a heap snapshot
// taken then showed no path to it but the WeakRef's own keep-during-job root (V8's work off the main thread,
// not June's). 40 runs in 40 free with the timer.
const collected = async () => { for (let i = 0; i < 4; i++) { globalThis.gc(); await new Promise((r) => setTimeout(r, 20)); } };
${body}
`,
  );
  return execFileSync(process.execPath, ["--expose-gc", file], { encoding: "utf8", timeout: 60_000 }).trim();
}

describe("what a dropped session leaves behind", () => {
  it("fullContext over memoryStore: the messages it built for a session go with the session object", () => {
    const out = run(`
const chat = createChat({ model: scriptedModel(() => "A reply of some length, ".repeat(12)), store: memoryStore(), context: fullContext() });
// One session served and dropped, as a request of the HTTP handler does; a weak reference to the newest
// message its context built.
async function serve() {
  const session = await chat.createSession();
  for (let t = 0; t < 10; t++) await session.send("Question " + t + " " + "x".repeat(200)).result;
  const messages = await session.messages();
  return new WeakRef(messages[messages.length - 1]);
}
const refs = [];
for (let s = 0; s < 5; s++) refs.push(await serve());
await collected();
console.log(refs.map((ref, i) => (ref.deref() === undefined ? "" : i)).join(""));
`);
    expect(out).toBe("");
  });

  it("an ended turn whose events nobody read is held by nothing of June's while its session lives; a kept handle still replays", () => {
    const out = run(`
const chat = createChat({ model: scriptedModel(() => ({ text: Array.from({ length: 60 }, (_, i) => "word" + i + " ") })), store: memoryStore(), context: fullContext() });
const session = await chat.createSession();
// The seed's idiom: the result awaited, the events never read. A weak reference to each turn handle, dropped.
async function unread(t) {
  const turn = session.send("Question " + t);
  await turn.result;
  return new WeakRef(turn);
}
// A turn whose first event was read, then let go: a weak reference to that event (kept in the turn's buffer).
async function firstEvent() {
  const turn = session.send("one more");
  const first = await turn[Symbol.asyncIterator]().next();
  await turn.result;
  return new WeakRef(first.value);
}
const dropped = [];
for (let t = 0; t < 10; t++) dropped.push(await unread(t));
const event = await firstEvent();
// A turn handle kept: its events replay in full after the turn ended.
const kept = session.send("kept");
const keptText = (await kept.result).text;
await collected();
let replayed = "";
for await (const e of kept) if (e.type === "text-delta") replayed += e.text;
console.log(JSON.stringify({ alive: dropped.filter((ref) => ref.deref() !== undefined).length, event: event.deref() !== undefined, replayed: replayed === keptText && keptText.length > 0, turns: (await session.turns()).length }));
`);
    expect(JSON.parse(out)).toEqual({ alive: 0, event: false, replayed: true, turns: 12 });
  });

  it("a session reopened reads the same context as the live one did", () => {
    const out = run(`
const store = memoryStore();
const chat = createChat({ model: scriptedModel(() => "Reply."), store, context: fullContext() });
const live = await chat.createSession();
for (let t = 0; t < 3; t++) await live.send("Q" + t).result;
const reopened = await chat.openSession(live.id);
console.log(JSON.stringify(await live.messages()) === JSON.stringify(await reopened.messages()));
`);
    expect(out).toBe("true");
  });
});
