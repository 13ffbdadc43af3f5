/**
 * Child of the memory benchmark (run with --expose-gc): the heap one long session holds after TURNS turns
 * of INPUT_CHARS-character inputs, driven either through one open session (`chat`) or through
 * `createChatHandler` (`handler`: every turn a `POST /sessions/:id/turns` whose Server-Sent Events are read
 * to the end, as a browser would). fileStore without fsync in DIR, recentTurns(20). Prints one JSON line: heap (`heapUsed`
 * after gc) over the empty session at half the turns and at the end, and the RSS at the end.
 * Usage: node --expose-gc long-session-heap.mjs chat|handler DIR TURNS INPUT_CHARS
 */
import { createChat, fileStore, recentTurns } from "june/chat";
import { createChatHandler } from "june/server";
import { benchModel } from "../lib/fixtures.mjs";

const [variant, dir, turnsArg, inputArg] = process.argv.slice(2);
const turns = Number(turnsArg);
const inputChars = Number(inputArg);
const model = benchModel();
// recentTurns(20): each turn costs the same at any length, so a long session runs in seconds; what the
// session holds (its whole journal) does not depend on the context.
const chat = createChat({ model, store: fileStore(dir, { fsync: false }), context: recentTurns(20) });
const inputOf = (i) => `${i} `.padEnd(inputChars, "lorem ipsum dolor sit amet ");

function settle() {
  for (let i = 0; i < 4; i++) globalThis.gc();
  return process.memoryUsage().heapUsed;
}

async function driver() {
  if (variant === "chat") {
    const session = await chat.createSession({ id: "long" });
    return async (i) => {
      const turn = session.send(inputOf(i));
      for await (const _ of turn);
      await turn.result;
    };
  }
  if (variant !== "handler") throw new Error(`bench: unknown variant ${variant}`);
  const handler = createChatHandler(chat);
  const created = await handler(new Request("http://bench.local/sessions", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ id: "long" }) }));
  if (created.status !== 201) throw new Error(`bench: POST /sessions answered ${created.status}`);
  return async (i) => {
    const response = await handler(
      new Request("http://bench.local/sessions/long/turns", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ input: inputOf(i) }),
      }),
    );
    if (response.status !== 200) throw new Error(`bench: POST /sessions/long/turns answered ${response.status}: ${await response.text()}`);
    const text = await response.text();
    if (!text.includes('"status":"completed"')) throw new Error("bench: a turn did not complete");
  };
}

const turn = await driver();
await turn(0); // warm the code paths before the first reading
model.forget();
const base = settle();
let half = 0;
for (let i = 1; i <= turns; i++) {
  await turn(i);
  model.forget();
  if (i === Math.floor(turns / 2)) half = settle() - base;
}
const full = settle() - base;
process.stdout.write(`${JSON.stringify({ variant, turns, inputChars, halfBytes: half, fullBytes: full, rssBytes: process.memoryUsage().rss })}\n`);
