// Takes a session's turn lease on command. Reads commands from stdin, one a line:
//   go      -> tries acquireTurn, prints {"result":"acquired"} or {"result":"busy","name":...}
//   release -> releases the lease, prints {"result":"released"}
//   turn    -> a whole turn as the chat writes it (acquire, turn-start, turn-end with endsLease, release), which
//              keeps the lease for keepLeaseMs; prints {"result":"turned"} or {"result":"busy",...}
//   exit    -> process.exit(0), with whatever lease it keeps
// argv: <store module url> <dir> <session id> [keepLeaseMs]
import { createInterface } from "node:readline";

const [storeUrl, dir, sessionId, keepLeaseMs] = process.argv.slice(2);
const { fileStore } = await import(storeUrl);
const store = fileStore(dir, keepLeaseMs === undefined ? {} : { keepLeaseMs: Number(keepLeaseMs) });
let turns = 0;
let lease;
const say = (value) => process.stdout.write(`${JSON.stringify(value)}\n`);
say({ result: "ready" });
for await (const line of createInterface({ input: process.stdin })) {
  if (line === "go") {
    try {
      lease = await store.acquireTurn(sessionId);
      say({ result: "acquired" });
    } catch (error) {
      say({ result: "busy", name: error.name, message: error.message });
    }
  } else if (line === "turn") {
    try {
      const turnId = `${process.pid}-${turns++}`;
      const own = await store.acquireTurn(sessionId);
      const [{ seq }] = (await store.read(sessionId)).slice(-1);
      await store.append(sessionId, [{ type: "turn-start", turnId, input: "hi", context: { builder: "full", turnIds: [] } }], { expectedSeq: seq });
      await store.append(sessionId, [{ type: "turn-end", turnId, status: "completed", text: "hello" }], { expectedSeq: seq + 1, sync: true, endsLease: own });
      await store.releaseTurn(own);
      say({ result: "turned" });
    } catch (error) {
      say({ result: "busy", name: error.name, message: error.message });
    }
  } else if (line === "exit") {
    process.exit(0);
  } else if (line === "release") {
    await store.releaseTurn(lease);
    say({ result: "released" });
  }
}
