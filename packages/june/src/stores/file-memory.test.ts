import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { fileStore } from "./index.js";

const root = mkdtempSync(join(tmpdir(), "june-file-memory-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("fileStore's memory area on disk", () => {
  it("keeps working memory and the recall index readable by their owner only, as it keeps turn files, and leaves no temporary file", async () => {
    const store = fileStore(root, { fsync: false });
    await store.putMemory!({ scope: "owner", id: "alice" }, { text: "Alice works in metric units." });
    await store.putMemory!({ scope: "owner", id: "alice" }, { text: "Alice works in metric units. Project Lark." });
    await store.putRecall!([{ owner: "alice", sessionId: "s1", turnId: "t1", text: "User: hi\nAssistant: hello", contentHash: "0".repeat(64), embedding: [1, 0], at: new Date().toISOString() }]);
    const mode = (path: string) => statSync(path).mode & 0o777;
    for (const dir of ["working", "recall"]) {
      const path = join(root, ".memory", dir);
      expect([dir, mode(path)]).toEqual([dir, 0o700]);
      const names = readdirSync(path);
      expect(names.filter((n) => n.endsWith(".tmp"))).toEqual([]);
      for (const name of names) expect([name, mode(join(path, name))]).toEqual([name, 0o600]);
    }
    expect((await store.listMemoryVersions!({ scope: "owner", id: "alice" })).map((v) => v.version)).toEqual([1, 2]);
  });
});
