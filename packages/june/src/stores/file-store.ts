import { resolve } from "node:path";
import { MEMORY_METHODS } from "./memory-records.js";
import { brandStore, openJournal, type JournalOpener } from "./journal-open.js";
import type { ChatStore } from "./types.js";

export interface FileStoreOptions {
  /** Flush appends made with `sync: true` (a turn's end) and new sessions to disk. Default true. */
  fsync?: boolean;
}

/** The store's methods, each a call of the store's implementation (`file-store-core.ts`). */
const METHODS = [
  "createSession",
  "getSession",
  "listSessions",
  "deleteSession",
  "append",
  "read",
  "acquireTurn",
  "releaseTurn",
  "putCheckpoint",
  "getCheckpoint",
  "listCheckpoints",
  "deleteCheckpoint",
  "putFile",
  "getFile",
  ...MEMORY_METHODS,
] as const satisfies readonly (keyof ChatStore)[];

/**
 * A store that keeps one JSONL journal per session in `dir` (created on demand), safe to share between
 * processes: appends are whole lines written at once under a short per-session lock, a torn last line (a
 * crash mid-write) is skipped on read and cut off at the next append, and turn leases are lock files
 * (`<id>.lock`) holding the owner's pid, taken over when that process is gone. A lock is a hard link of a
 * small hidden file this store keeps beside the journals (`.lease-…`) and rewrites for each lease (cheaper
 * than creating and deleting a file per turn); `close()` removes them, and a store removes those a killed
 * process left.
 *
 * Session ids are letters, digits, `-` and `_` (at most 128); anything else is refused with
 * `InvalidSessionIdError` before any file is touched.
 *
 * The implementation is loaded by the store's first call (every method is async): importing `june/chat`
 * for a chat on another store costs nothing of it.
 *
 * @param dir The directory of the journals, e.g. `.june/chat`.
 * @example
 * const chat = createChat({ model, store: fileStore(".june/chat") });
 */
export function fileStore(dir: string, options: FileStoreOptions = {}): ChatStore {
  if (typeof dir !== "string" || dir === "") throw new TypeError("fileStore: `dir` must be a non-empty path");
  // Resolved now: the directory is the one meant when the store was made, whatever the working directory later.
  const root = resolve(dir);
  const settings: FileStoreOptions = options.fsync === undefined ? {} : { fsync: options.fsync };
  let core: (ChatStore & JournalOpener) | undefined;
  let loading: Promise<ChatStore & JournalOpener> | undefined;
  const load = (): Promise<ChatStore & JournalOpener> =>
    (loading ??= import("./file-store-core.js").then((module) => (core = module.fileStoreCore(root, settings) as ChatStore & JournalOpener)));
  const store = {} as Record<string, unknown>;
  for (const name of METHODS) {
    store[name] = (...args: unknown[]) => {
      const call = (s: ChatStore) => (s[name] as (...a: unknown[]) => Promise<unknown>)(...args);
      return core ? call(core) : load().then(call);
    };
  }
  // Nothing to close before the first call.
  store.close = () => (loading ? loading.then((s) => s.close!()) : Promise.resolve());
  return brandStore(store as unknown as ChatStore, {
    open: (sessionId) => (core ? core[openJournal](sessionId) : load().then((s) => s[openJournal](sessionId))),
  });
}
