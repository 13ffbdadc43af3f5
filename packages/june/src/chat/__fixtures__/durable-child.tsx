// A child process for the durable kill tests (run with `node --import tsx`): it opens a store, sends one turn
// of the durable chat in ./durable-chat.tsx and prints one JSON object a line on stdout, then waits to be
// killed (SIGKILL).
//
// argv: <kind: file|sqlite|postgres> <where: dir | db file | schema> <session id> <log file> <mode> [<turns>]
//   wait     -> prints {"event":"waiting","turnId","requestId"} once the approval is asked and checkpointed
//   execute  -> as wait, then approves; the tool prints {"event":"executing"} and never returns
//   announce -> the moment the turn's reader hears the approval-request, lets `turns` event-loop turns pass
//               (default 0), prints {"event":"announced","turnId","requestId"} and freezes (nothing more runs)
//   answer   -> prints {"event":"approved","turnId","requestId"} and approves the request as soon as it is
//               announced; the tool returns, and the model call that follows prints {"event":"answering"} and
//               never returns
import { durableChat } from "./durable-chat.js";
import { openStore } from "./durable-stores.js";

const [kind, where, sessionId, log, mode, turns] = process.argv.slice(2) as [string, string, string, string, string, string?];
// Stdout is a pipe: on Linux each write is synchronous, so a line is out before the process freezes.
const say = (value: unknown) => process.stdout.write(`${JSON.stringify(value)}\n`);
/** Stops this process where it is: no timer, I/O callback or promise of it runs again. */
const freeze = (): never => {
  for (;;) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
};
const forever = () => new Promise<void>(() => {});

if (mode !== undefined) {
  const store = await openStore(kind, where);
  const { chat } = durableChat({
    store,
    log,
    durable: { suspendAfterMs: Infinity },
    onExecute: () => {
      if (mode !== "execute") return;
      say({ event: "executing" });
      return forever();
    },
    onAnswer: () => {
      if (mode !== "answer") return;
      say({ event: "answering" });
      return forever();
    },
  });
  const session = await chat.openSession(sessionId);
  const turn = session.send("ship the docs");
  for await (const event of turn) {
    if (event.type !== "approval-request") continue;
    const request = event.request;
    if (mode === "announce") {
      for (let i = 0; i < Number(turns ?? 0); i++) await new Promise((resolve) => setImmediate(resolve));
      say({ event: "announced", turnId: turn.id, requestId: request.id });
      freeze();
    }
    if (mode === "answer") {
      say({ event: "approved", turnId: turn.id, requestId: request.id });
      turn.approve(request.id);
      break;
    }
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
  await forever();
}
