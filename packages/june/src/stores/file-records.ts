import { createHash } from "node:crypto";
import { assertSessionId } from "./errors.js";
import type { FileRef, NewFile } from "./types.js";

/** A file as a store is about to keep it: checked, its bytes copied, hashed. */
export interface FileToKeep {
  id: string;
  mediaType: string;
  filename?: string;
  bytes: Uint8Array;
  size: number;
  sha256: string;
}

/**
 * Checks `putFile`'s arguments (`TypeError` for bad ones) and hashes the bytes: the file's id is its SHA-256,
 * so the same bytes are one stored copy. The bytes are copied: the caller's array may change.
 */
export function fileToKeep(sessionId: unknown, file: NewFile): FileToKeep {
  assertSessionId(sessionId);
  if (typeof file !== "object" || file === null) throw new TypeError("putFile: `file` must be { bytes, mediaType, filename? }");
  if (!(file.bytes instanceof Uint8Array)) throw new TypeError("putFile: `file.bytes` must be a Uint8Array");
  if (typeof file.mediaType !== "string" || file.mediaType.length === 0 || file.mediaType.length > 255) {
    throw new TypeError("putFile: `file.mediaType` must be a media type (1 to 255 characters)");
  }
  if (file.filename !== undefined && (typeof file.filename !== "string" || file.filename.length === 0 || file.filename.length > 255)) {
    throw new TypeError("putFile: `file.filename` must be 1 to 255 characters");
  }
  const bytes = new Uint8Array(file.bytes);
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  return { id: sha256, mediaType: file.mediaType, ...(file.filename !== undefined ? { filename: file.filename } : {}), bytes, size: bytes.byteLength, sha256 };
}

/** A file id as stores name them (lowercase hex SHA-256), or undefined: a `getFile` of anything else finds nothing. */
export function fileIdOf(sessionId: unknown, fileId: unknown): string | undefined {
  assertSessionId(sessionId);
  return typeof fileId === "string" && /^[0-9a-f]{64}$/.test(fileId) ? fileId : undefined;
}

/** The reference `putFile` resolves to: the file's id, what it is, its name as given, its size and hash. */
export function keptRef(file: FileToKeep): FileRef {
  return { id: file.id, mediaType: file.mediaType, ...(file.filename !== undefined ? { filename: file.filename } : {}), size: file.size, sha256: file.sha256 };
}

/** The reference `getFile` gives back for stored bytes (no filename: a session's turns name theirs). */
export function storedRef(id: string, mediaType: string, size: number): FileRef {
  return { id, mediaType, size, sha256: id };
}
