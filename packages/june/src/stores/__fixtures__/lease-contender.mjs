// Takes a session's turn lease on command. Reads commands from stdin, one a line:
//   go      -> tries acquireTurn, prints {"result":"acquired"} or {"result":"busy","name":...}
//   release -> releases the lease, prints {"result":"released"}
// argv: <store module url> <dir> <session id>
import { createInterface } from "node:readline";

const [storeUrl, dir, sessionId] = process.argv.slice(2);
const { fileStore } = await import(storeUrl);
const store = fileStore(dir);
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
  } else if (line === "release") {
    await store.releaseTurn(lease);
    say({ result: "released" });
  }
}
