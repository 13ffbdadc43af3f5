#!/usr/bin/env node
/**
 * June's own work per turn, with no model at all: a chat over memoryStore whose responder answers at once,
 * in a session seeded with N turns (fullContext unless "recentTurns(20)" is given). What it prints is the
 * context, the journal and the turn's lifecycle, the part of a turn that `npm run bench` measures only
 * under the AI SDK's much larger cost:
 *   node bench/tools/june-work.mjs 10000 [300] [fullContext|"recentTurns(20)"]
 */
import { createChat, memoryStore } from "june/chat";
import { contextOf, inputOf, replyDeltas, seedSession } from "../lib/fixtures.mjs";

const [sizeArg = "10000", turnsArg = "300", contextName = "fullContext"] = process.argv.slice(2);
const size = Number(sizeArg);
const turns = Number(turnsArg);
const reply = replyDeltas().join("");
let sent = 0;
const responder = {
  kind: "instant",
  respond: ({ messages }) => {
    sent = messages.length;
    return { result: Promise.resolve({ text: reply }) };
  },
};
const chat = createChat({ responder, store: memoryStore(), context: contextOf(contextName) });
const { id } = await chat.createSession();
await seedSession(chat.store, id, { turns: size, contextName });
const session = await chat.openSession(id);
const turn = async (i) => {
  const t = session.send(inputOf(size + i));
  for await (const event of t) void event;
  await t.result;
};
for (let i = 0; i < 20; i++) await turn(i);
const cpu = process.cpuUsage();
const started = performance.now();
for (let i = 0; i < turns; i++) await turn(20 + i);
const used = process.cpuUsage(cpu);
process.stdout.write(
  `${contextName} at ${size} turns: ${((used.user + used.system) / 1000 / turns).toFixed(3)} ms CPU, ` +
    `${((performance.now() - started) / turns).toFixed(3)} ms wall per turn (${sent} messages sent on the last)\n`,
);
