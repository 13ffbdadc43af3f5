import {
  MAX_MEMORY_VERSIONS,
  checkMemoryKey,
  checkMemoryUpdate,
  checkRecallEntries,
  checkRecallQuery,
  checkRecallTarget,
  exactSearch,
  memoryKeyString,
  nextVersion,
} from "./memory-records.js";
import type { MemoryKey, MemoryStoreMethods, MemoryVersion, RecallEntry } from "./memory-types.js";

/** `memoryStore`'s memory area: working memories and the recall index in this process's memory. */
export function memoryArea(): MemoryStoreMethods & { forgetSession(sessionId: string): void } {
  const versions = new Map<string, MemoryVersion[]>();
  /** The recall index by owner, then by `sessionId turnId`. */
  const recall = new Map<string, Map<string, RecallEntry>>();

  const forgetSessionRecall = (sessionId: string): number => {
    let deleted = 0;
    for (const entries of recall.values()) {
      for (const [id, entry] of entries) {
        if (entry.sessionId === sessionId) {
          entries.delete(id);
          deleted++;
        }
      }
    }
    return deleted;
  };

  return {
    async getMemory(key: MemoryKey) {
      const kept = versions.get(memoryKeyString(checkMemoryKey("getMemory", key)));
      return kept && { ...kept[kept.length - 1]! };
    },
    async putMemory(key: MemoryKey, update) {
      const id = memoryKeyString(checkMemoryKey("putMemory", key));
      const checked = checkMemoryUpdate(update);
      const kept = versions.get(id) ?? [];
      const latest = kept[kept.length - 1];
      const next = nextVersion(latest, checked);
      if (!next) return { ...latest! };
      versions.set(id, [...kept, next].slice(-MAX_MEMORY_VERSIONS));
      return { ...next };
    },
    async listMemoryVersions(key: MemoryKey) {
      return (versions.get(memoryKeyString(checkMemoryKey("listMemoryVersions", key))) ?? []).map((v) => ({ ...v }));
    },
    async deleteMemory(key: MemoryKey) {
      return versions.delete(memoryKeyString(checkMemoryKey("deleteMemory", key)));
    },
    async putRecall(entries) {
      for (const entry of checkRecallEntries(entries)) {
        let owned = recall.get(entry.owner);
        if (!owned) recall.set(entry.owner, (owned = new Map()));
        owned.set(`${entry.sessionId} ${entry.turnId}`, entry);
      }
    },
    async searchRecall(query) {
      const checked = checkRecallQuery(query);
      return exactSearch(checked, recall.get(checked.owner)?.values() ?? []);
    },
    async deleteRecall(target) {
      const checked = checkRecallTarget(target);
      if ("sessionId" in checked) return forgetSessionRecall(checked.sessionId);
      const size = recall.get(checked.owner)?.size ?? 0;
      recall.delete(checked.owner);
      return size;
    },
    forgetSession(sessionId: string) {
      forgetSessionRecall(sessionId);
      versions.delete(memoryKeyString({ scope: "session", id: sessionId }));
    },
  };
}
