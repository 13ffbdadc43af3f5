// A process that shares a SQLite store with the test. Reads commands from stdin, one a line, and prints
// one JSON line per command:
//   append <expectedSeq> <turnId> -> appends a turn-start and turn-end: {"result":"won","seqs":[..]} or
//                                    {"result":"rejected","name":"ConflictError"}
//   acquire                       -> {"result":"acquired"} or {"result":"rejected","name":"SessionBusyError"}
//   release                       -> {"result":"released"}
// argv: <store module url> <database path> <session id>
import { createInterface } from "node:readline";

const [storeUrl, path, sessionId] = process.argv.slice(2);
const { sqliteStore } = await import(storeUrl);
const store = sqliteStore({ path, fsync: false, busyTimeoutMs: 20_000 });
let lease;
const say = (value) => process.stdout.write(`${JSON.stringify(value)}\n`);
say({ result: "ready", pid: process.pid });
for await (const line of createInterface({ input: process.stdin })) {
  const [command, ...args] = line.split(" ");
  try {
    if (command === "append") {
      const [expectedSeq, turnId] = args;
      const written = await store.append(
        sessionId,
        [
          { type: "turn-start", turnId, input: `from ${process.pid}`, context: { builder: "full", turnIds: [] } },
          { type: "turn-end", turnId, status: "completed", text: `by ${process.pid}` },
        ],
        { expectedSeq: Number(expectedSeq) },
      );
      say({ result: "won", seqs: written.map((e) => e.seq) });
    } else if (command === "acquire") {
      lease = await store.acquireTurn(sessionId);
      say({ result: "acquired" });
    } else if (command === "release") {
      await store.releaseTurn(lease);
      say({ result: "released" });
    } else {
      say({ result: "unknown command", command });
    }
  } catch (error) {
    say({ result: "rejected", name: error.name, message: error.message });
  }
}
await store.close();
