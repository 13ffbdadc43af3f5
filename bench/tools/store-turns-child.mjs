#!/usr/bin/env node
/**
 * A store's turns alone, for `store-syscalls.mjs` (run under strace): N turns of 50 per session (acquire, turn-start,
 * turn-end with `endsLease`, release), after one warm-up session. Prints CPU per turn.
 *   node bench/tools/store-turns-child.mjs CHAT_MODULE_URL [file|file-nosync|memory] [turns]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const [chatUrl, kind = "file-nosync", turns = "2000"] = process.argv.slice(2);
const { fileStore, memoryStore } = await import(chatUrl);
const dir = mkdtempSync(join(tmpdir(), "june-store-turns-"));
const store = kind === "memory" ? memoryStore() : fileStore(dir, { fsync: kind === "file" });
const reply = "x".repeat(600);
let sid = 0;
async function session(count) {
  const id = `s${sid++}`;
  await store.createSession({ id });
  let seq = 1;
  for (let i = 0; i < count; i++) {
    const lease = await store.acquireTurn(id);
    const turnId = `t${i}`;
    await store.append(id, [{ type: "turn-start", turnId, input: `hello ${i}`, context: { builder: "fullContext", turnIds: [] } }], { expectedSeq: seq });
    await store.append(id, [{ type: "turn-end", turnId, status: "completed", text: reply, metadata: { responder: { kind: "model" } } }], { expectedSeq: seq + 1, sync: true, endsLease: lease });
    seq += 2;
    await store.releaseTurn(lease);
  }
}
await session(50);
const n = Number(turns);
const cpu = process.cpuUsage();
for (let k = 0; k < n / 50; k++) await session(50);
const used = process.cpuUsage(cpu);
console.log(`${kind} ${n ? ((used.user + used.system) / n).toFixed(1) : 0} µs CPU/turn`);
await store.close?.();
rmSync(dir, { recursive: true, force: true });
