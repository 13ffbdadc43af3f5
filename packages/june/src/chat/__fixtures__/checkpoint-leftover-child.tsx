// A child process for checkpoint-leftovers.test.tsx (run with `node --import tsx`): it opens a store, runs one
// durable turn of ./leftover-chat.tsx to its end (approving the tool at once) and kills itself (SIGKILL) at the
// write point it is given, or right after the turn ended when the point never comes.
//
// argv: <kind: file|sqlite|postgres> <where> <session id> <point>
//   put:<k>  -> after the k-th checkpoint write resolved
//   rename   -> a file store's checkpoint is written to its temporary file and not yet renamed into place
//   delete   -> a file store's checkpoint is about to be deleted (its turn-end is journaled)
//   wal      -> SQLite is about to empty its WAL after a delete (the delete is committed)
//   end      -> the turn ended (its result resolved); the store is not closed
import { createRequire, syncBuiltinESMExports } from "node:module";
import { leftoverChat } from "./leftover-chat.js";
import { openStore } from "./durable-stores.js";

const [kind, where, sessionId, point] = process.argv.slice(2) as [string, string, string, string];
const die = (): never => {
  process.kill(process.pid, "SIGKILL");
  throw new Error("unreachable");
};
const require = createRequire(import.meta.url);

// The file store's fs calls, through the module's live bindings.
const fsp = require("node:fs/promises") as typeof import("node:fs/promises");
const { rename, unlink } = fsp;
fsp.rename = (async (from: string, to: string) => {
  if (point === "rename" && String(to).endsWith(".checkpoint.json")) die();
  return rename(from, to);
}) as typeof rename;
fsp.unlink = (async (path: string) => {
  if (point === "delete" && String(path).endsWith(".checkpoint.json")) die();
  return unlink(path);
}) as typeof unlink;
syncBuiltinESMExports();

const store = await openStore(kind, where);
if (kind === "sqlite" && point === "wal") {
  // Installed once the store is open (it empties a crash's WAL as it opens).
  const Database = require("better-sqlite3") as { prototype: { pragma(source: string, options?: unknown): unknown } };
  const pragma = Database.prototype.pragma;
  Database.prototype.pragma = function (this: unknown, source: string, options?: unknown) {
    if (source.startsWith("wal_checkpoint")) die();
    return pragma.call(this, source, options);
  };
}
let puts = 0;
const put = store.putCheckpoint!.bind(store);
store.putCheckpoint = async (...args) => {
  await put(...args);
  if (point === `put:${++puts}`) die();
};

const chat = leftoverChat({ store, durable: { suspendAfterMs: Infinity } });
const session = await chat.openSession(sessionId);
const turn = session.send("ship the docs");
for await (const event of turn) if (event.type === "approval-request") turn.approve(event.request.id);
await turn.result;
die();
