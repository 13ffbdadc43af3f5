// A child process for the ask kill test (run with `node --import tsx`): it sends one turn of ./ask-chat.tsx,
// prints {"event":"asking","turnId","requestId"} once the question is asked and checkpointed, and waits to be
// killed (SIGKILL). argv: <kind: file|sqlite|postgres> <where> <session id> <log file>
import { openStore } from "../../chat/__fixtures__/durable-stores.js";
import { askChat } from "./ask-chat.js";

const [kind, where, sessionId, log] = process.argv.slice(2) as [string, string, string, string];
const store = await openStore(kind, where);
const { chat } = askChat({ store, log, durable: { suspendAfterMs: Infinity } });
const session = await chat.openSession(sessionId);
const turn = session.send("ship the docs");
for await (const event of turn) {
  if (event.type !== "input-request") continue;
  for (;;) {
    const stored = await store.getCheckpoint!(sessionId, turn.id);
    if (stored?.data.includes(event.request.id)) break;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  process.stdout.write(`${JSON.stringify({ event: "asking", turnId: turn.id, requestId: event.request.id })}\n`);
  await new Promise<void>(() => {});
}
