import { createHash } from "node:crypto";
import { mkdir, readFile, readdir, unlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { hasCode } from "./error-code.js";
import { writePrivateFile } from "./private-file.js";
import {
  MAX_MEMORY_VERSIONS,
  checkMemoryKey,
  checkMemoryUpdate,
  checkRecallEntries,
  checkRecallQuery,
  checkRecallTarget,
  exactSearch,
  nextVersion,
} from "./memory-records.js";
import type { MemoryKey, MemoryStoreMethods, MemoryVersion, RecallEntry } from "./memory-types.js";

/**
 * A file store's memory area, in `<dir>/.memory/`: a working memory's versions as one JSON file each
 * (`working/<scope>-<sha256 of the id>.json`, replaced whole by a rename), an owner's recall index as JSON lines
 * (`recall/<sha256 of the owner>.jsonl`, appended; a later line for the same turn wins). Searched exactly in
 * process. Writes of one process are queued per file; two processes writing one owner's memory at once may lose
 * one of the two versions (the last rename wins), never corrupt the file. Readable by their owner only, like the
 * turn files (`writePrivateFile`).
 */
export function fileMemory(root: string, fsync: boolean): MemoryStoreMethods & { forgetSession(sessionId: string): Promise<void> } {
  const workingDir = join(root, ".memory", "working");
  const recallDir = join(root, ".memory", "recall");
  const queues = new Map<string, Promise<unknown>>();
  const hash = (text: string) => createHash("sha256").update(text).digest("hex");
  const workingPath = (key: MemoryKey) => join(workingDir, `${key.scope}-${hash(key.id)}.json`);
  const recallPath = (owner: string) => join(recallDir, `${hash(owner)}.jsonl`);

  function queued<T>(path: string, task: () => Promise<T>): Promise<T> {
    const result = (queues.get(path) ?? Promise.resolve()).then(task, task);
    const tail = result.catch(() => undefined);
    queues.set(path, tail);
    void tail.then(() => {
      if (queues.get(path) === tail) queues.delete(path);
    });
    return result;
  }

  async function readText(path: string): Promise<string | undefined> {
    try {
      return await readFile(path, "utf8");
    } catch (error) {
      if (hasCode(error, "ENOENT")) return undefined;
      throw error;
    }
  }

  async function remove(path: string): Promise<boolean> {
    try {
      await unlink(path);
      return true;
    } catch (error) {
      if (hasCode(error, "ENOENT")) return false;
      throw error;
    }
  }

  async function versionsAt(path: string): Promise<MemoryVersion[]> {
    const text = await readText(path);
    if (text === undefined) return [];
    const parsed = JSON.parse(text) as { versions?: MemoryVersion[] };
    return Array.isArray(parsed.versions) ? parsed.versions : [];
  }

  /** An owner's recall entries, the last line for a turn winning; a torn last line (a crash mid-append) skipped. */
  async function recallAt(path: string): Promise<Map<string, RecallEntry>> {
    const text = await readText(path);
    const entries = new Map<string, RecallEntry>();
    if (text === undefined) return entries;
    for (const line of text.split("\n")) {
      if (line === "") continue;
      try {
        const entry = JSON.parse(line) as RecallEntry;
        entries.set(`${entry.sessionId} ${entry.turnId}`, entry);
      } catch {
        // A line cut short by a crash: that entry is not indexed.
      }
    }
    return entries;
  }

  const linesOf = (entries: Iterable<RecallEntry>) => [...entries].map((e) => JSON.stringify(e) + "\n").join("");

  async function forgetSessionRecall(sessionId: string): Promise<number> {
    let names: string[];
    try {
      names = await readdir(recallDir);
    } catch (error) {
      if (hasCode(error, "ENOENT")) return 0;
      throw error;
    }
    let deleted = 0;
    for (const name of names.filter((n) => n.endsWith(".jsonl"))) {
      const path = join(recallDir, name);
      deleted += await queued(path, async () => {
        const entries = await recallAt(path);
        const kept = [...entries.values()].filter((e) => e.sessionId !== sessionId);
        if (kept.length === entries.size) return 0;
        await writePrivateFile(path, linesOf(kept), fsync);
        return entries.size - kept.length;
      });
    }
    return deleted;
  }

  return {
    async getMemory(key) {
      const versions = await versionsAt(workingPath(checkMemoryKey("getMemory", key)));
      return versions[versions.length - 1];
    },
    async putMemory(key, update) {
      const path = workingPath(checkMemoryKey("putMemory", key));
      const checked = checkMemoryUpdate(update);
      return queued(path, async () => {
        const versions = await versionsAt(path);
        const latest = versions[versions.length - 1];
        const next = nextVersion(latest, checked);
        if (!next) return latest!;
        await mkdir(workingDir, { recursive: true, mode: 0o700 });
        await writePrivateFile(path, JSON.stringify({ key, versions: [...versions, next].slice(-MAX_MEMORY_VERSIONS) }), fsync);
        return next;
      });
    },
    async listMemoryVersions(key) {
      return versionsAt(workingPath(checkMemoryKey("listMemoryVersions", key)));
    },
    async deleteMemory(key) {
      const path = workingPath(checkMemoryKey("deleteMemory", key));
      return queued(path, () => remove(path));
    },
    async putRecall(entries) {
      const byOwner = new Map<string, RecallEntry[]>();
      for (const entry of checkRecallEntries(entries)) byOwner.set(entry.owner, [...(byOwner.get(entry.owner) ?? []), entry]);
      if (byOwner.size === 0) return;
      await mkdir(recallDir, { recursive: true, mode: 0o700 });
      for (const [owner, owned] of byOwner) {
        const path = recallPath(owner);
        await queued(path, () => writeFile(path, linesOf(owned), { flag: "a", mode: 0o600, flush: fsync }));
      }
    },
    async searchRecall(query) {
      const checked = checkRecallQuery(query);
      return exactSearch(checked, (await recallAt(recallPath(checked.owner))).values());
    },
    async deleteRecall(target) {
      const checked = checkRecallTarget(target);
      if ("sessionId" in checked) return forgetSessionRecall(checked.sessionId);
      const path = recallPath(checked.owner);
      return queued(path, async () => {
        const size = (await recallAt(path)).size;
        await remove(path);
        return size;
      });
    },
    async forgetSession(sessionId) {
      await forgetSessionRecall(sessionId);
      const path = workingPath({ scope: "session", id: sessionId });
      await queued(path, () => remove(path));
    },
  };
}
