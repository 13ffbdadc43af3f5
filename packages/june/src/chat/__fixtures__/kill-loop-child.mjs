// A child process for kill-loop.test.ts: sends turn after turn to one session of a store and prints a line
// for each turn whose `result` resolved (the turn is acknowledged: its turn-end is journaled durably). The
// test kills it with SIGKILL at seeded moments. It runs the BUILT package (plain node, fast to start).
// argv: <file|sqlite|postgres> <location: a dir, a database file, or "<url> <schema>"> <session id>
const [kind, location, sessionId, schema] = process.argv.slice(2);
const dist = new URL("../../../dist/", import.meta.url);
const { createChat, fileStore, sqliteStore, postgresStore } = await import(new URL("chat/index.js", dist).href);
const { scriptedModel } = await import(new URL("testing/index.js", dist).href);

async function storeOf() {
  if (kind === "file") return fileStore(location);
  if (kind === "sqlite") return sqliteStore(location);
  // A short lease: a killed holder's lease runs out in half a second (the living renew theirs).
  if (kind === "postgres") return postgresStore({ connectionString: location, schema, leaseTtlMs: 500 });
  throw new Error(`kill-loop-child: unknown store ${kind}`);
}

const say = (value) => process.stdout.write(`${JSON.stringify(value)}\n`);
let n = 0;
const model = scriptedModel(() => ({ text: ["reply ", "to ", `${process.pid}-${n} `, "done"], delay: 2 }));
const chat = createChat({ model, store: await storeOf() });
const session = await chat.openSession(sessionId);
say({ event: "ready", pid: process.pid });
for (;;) {
  const input = `turn ${process.pid}-${n}`;
  const turn = session.send(input);
  try {
    const result = await turn.result;
    say({ event: "acked", turnId: turn.id, input, text: result.text });
    n++;
  } catch (error) {
    // The killed process before this one may still hold the lease (until it is found dead or expires).
    if (error?.name !== "SessionBusyError") throw error;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
