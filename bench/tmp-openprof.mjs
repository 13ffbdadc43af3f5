import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { createChat, fileStore } from "june/chat";
import { scriptedModel } from "june/testing";
import { seedSession, tempDir } from "/work/main/bench/lib/fixtures.mjs";
const dir = tempDir();
const seedStore = fileStore(dir, { fsync: false });
await seedStore.createSession({ id: "long" });
await seedSession(seedStore, "long", { turns: 1000 });
const mode = process.argv[2] ?? "june";
const cpu = process.cpuUsage();
const N = 60;
for (let i = 0; i < N; i++) {
  if (mode === "june") {
    const chat = createChat({ model: scriptedModel("unused"), store: fileStore(dir) });
    const s = await chat.openSession("long");
    const t = await s.turns();
    if (t.length !== 1000) throw new Error("n");
  } else {
    const text = await readFile(join(dir, "long.jsonl"), "utf8");
    const entries = [];
    for (const line of text.split("\n")) if (line) entries.push(JSON.parse(line));
  }
}
const u = process.cpuUsage(cpu);
console.log(mode, ((u.user + u.system) / 1000 / N).toFixed(2), "ms cpu each");
