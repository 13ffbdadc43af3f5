import { randomUUID } from "node:crypto";
import { rename, unlink, writeFile } from "node:fs/promises";

/**
 * Writes `data` to `path` whole or not at all, readable by its owner only: a temporary file beside it (created
 * exclusively, mode 0600, flushed when `fsync`), renamed over it; the temporary file goes if the rename fails.
 * What a file store keeps of a person's (turn files, working memory) is written this way.
 */
export async function writePrivateFile(path: string, data: Uint8Array | string, fsync: boolean): Promise<void> {
  const tmp = `${path}.${process.pid}.${randomUUID()}.tmp`;
  await writeFile(tmp, data, { flag: "wx", mode: 0o600, flush: fsync });
  try {
    await rename(tmp, path);
  } catch (error) {
    await unlink(tmp).catch(() => undefined);
    throw error;
  }
}
