// Appends `count` turns to a session, re-reading and retrying on ConflictError (another process appended).
// Prints {"appended":count,"conflicts":n} at the end.
// argv: <store module url> <dir> <session id> <count>
const [storeUrl, dir, sessionId, count] = process.argv.slice(2);
const { fileStore } = await import(storeUrl);
const store = fileStore(dir, { fsync: false });
let conflicts = 0;
for (let i = 0; i < Number(count); ) {
  const entries = await store.read(sessionId);
  const last = entries[entries.length - 1].seq;
  const turnId = `p${process.pid}-${i}`;
  try {
    await store.append(
      sessionId,
      [
        { type: "turn-start", turnId, input: `input ${i}`, context: { builder: "full", turnIds: [] } },
        { type: "turn-end", turnId, status: "completed", text: `reply ${i}` },
      ],
      { expectedSeq: last },
    );
    i++;
  } catch (error) {
    if (error.name !== "ConflictError") throw error;
    conflicts++;
  }
}
process.stdout.write(`${JSON.stringify({ appended: Number(count), conflicts })}\n`);
