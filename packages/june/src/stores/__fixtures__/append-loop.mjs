// Appends two-entry batches (large, so that one write spans many pages) to a session forever, printing
// each new last seq. The test kills it with SIGKILL mid-way.
// argv: <store module url> <dir> <session id>
const [storeUrl, dir, sessionId] = process.argv.slice(2);
const { fileStore } = await import(storeUrl);
const store = fileStore(dir);
const entries = await store.read(sessionId);
let seq = entries[entries.length - 1].seq;
const text = "x".repeat(200_000);
for (let i = 0; ; i++) {
  const written = await store.append(
    sessionId,
    [
      { type: "turn-start", turnId: `p${process.pid}-${i}`, input: `input ${i}`, context: { builder: "full", turnIds: [] } },
      { type: "turn-end", turnId: `p${process.pid}-${i}`, status: "completed", text },
    ],
    { expectedSeq: seq, sync: i % 8 === 0 },
  );
  seq = written[written.length - 1].seq;
  process.stdout.write(`${seq}\n`);
}
