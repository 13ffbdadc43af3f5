// A child process for durable-kill.test.tsx (run with `node --import tsx`): it opens a store, sends one turn
// of the durable chat in ./durable-chat.tsx and prints one JSON object a line on stdout, then waits to be
// killed (SIGKILL).
//
// argv: <kind: file|sqlite|postgres> <where: dir | db file | schema> <session id> <log file> <mode>
//   wait    -> prints {"event":"waiting","turnId","requestId"} once the approval is asked and checkpointed
//   execute -> as wait, then approves; the tool prints {"event":"executing"} and never returns
import { durableChat } from "./durable-chat.js";
import { openStore } from "./durable-stores.js";

const [kind, where, sessionId, log, mode] = process.argv.slice(2) as [string, string, string, string, string];
const say = (value: unknown) => process.stdout.write(`${JSON.stringify(value)}\n`);

if (mode !== undefined) {
  const store = await openStore(kind, where);
  const { chat } = durableChat({
    store,
    log,
    durable: { suspendAfterMs: Infinity },
    onExecute: () => {
      say({ event: "executing" });
      return new Promise<void>(() => {});
    },
  });
  const session = await chat.openSession(sessionId);
  const turn = session.send("ship the docs");
  for await (const event of turn) {
    if (event.type !== "approval-request") continue;
    const request = event.request;
    // Wait until the checkpoint that lists the request is stored: from then on, nothing is lost.
    for (;;) {
      const stored = await store.getCheckpoint!(sessionId, turn.id);
      if (stored?.data.includes(request.id)) break;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    say({ event: "waiting", turnId: turn.id, requestId: request.id });
    if (mode === "execute") turn.approve(request.id);
    break;
  }
  await new Promise(() => {});
}
