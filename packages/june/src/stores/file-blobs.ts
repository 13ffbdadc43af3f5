import { mkdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { hasCode } from "./error-code.js";
import { syncDirectory } from "./file-journal.js";
import { storedRef, type FileToKeep } from "./file-records.js";
import { writePrivateFile } from "./private-file.js";
import type { StoredFile } from "./types.js";

/**
 * A file store's turn files: `<dir>/<sessionId>.files/<sha256>` (the bytes) beside `<sha256>.json` (the media
 * type), readable by their owner only, one copy per content. The bytes are written to a temporary file, flushed
 * and renamed into place before their description, so a description always has its bytes; deleting the session
 * removes the folder.
 */
export class FileBlobs {
  readonly #root: string;
  readonly #fsync: boolean;

  constructor(root: string, fsync: boolean) {
    this.#root = root;
    this.#fsync = fsync;
  }

  dir(sessionId: string): string {
    return join(this.#root, `${sessionId}.files`);
  }

  async put(sessionId: string, file: FileToKeep): Promise<void> {
    const dir = this.dir(sessionId);
    const meta = join(dir, `${file.id}.json`);
    if (await readFile(meta, "utf8").then(() => true, () => false)) return;
    await mkdir(dir, { recursive: true, mode: 0o700 });
    await writePrivateFile(join(dir, file.id), file.bytes, this.#fsync);
    await writePrivateFile(meta, JSON.stringify({ mediaType: file.mediaType, size: file.size }), this.#fsync);
    if (this.#fsync) await syncDirectory(dir).catch(() => undefined);
  }

  async get(sessionId: string, fileId: string): Promise<StoredFile | undefined> {
    const dir = this.dir(sessionId);
    let meta: { mediaType?: unknown };
    let bytes: Buffer;
    try {
      meta = JSON.parse(await readFile(join(dir, `${fileId}.json`), "utf8")) as { mediaType?: unknown };
      bytes = await readFile(join(dir, fileId));
    } catch (error) {
      if (hasCode(error, "ENOENT") || error instanceof SyntaxError) return undefined;
      throw error;
    }
    if (typeof meta.mediaType !== "string") return undefined;
    const out = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    return { ref: storedRef(fileId, meta.mediaType, out.byteLength), bytes: out };
  }

  /** Removes a session's files with the session. */
  async deleteAll(sessionId: string): Promise<void> {
    await rm(this.dir(sessionId), { recursive: true, force: true });
  }
}
