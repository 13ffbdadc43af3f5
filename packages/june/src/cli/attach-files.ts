import { readFile, stat } from "node:fs/promises";
import { basename, extname, resolve } from "node:path";
import type { TurnInput } from "../chat/files/turn-input.js";
import type { FileRef } from "../stores/types.js";
import { flagValues } from "./args.js";
import { CliUsageError } from "./errors.js";

/** One file of a turn's input, as `session.send` takes it. */
export type AttachedFile = NonNullable<TurnInput["files"]>[number];

/** Media types by extension, for the files the CLI attaches; the chat's `files.mediaTypes` decides what it takes. */
const MEDIA_TYPES: Readonly<Record<string, string>> = {
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".pdf": "application/pdf",
  ".txt": "text/plain",
  ".md": "text/markdown",
  ".markdown": "text/markdown",
  ".csv": "text/csv",
  ".tsv": "text/tab-separated-values",
  ".html": "text/html",
  ".htm": "text/html",
  ".xml": "text/xml",
  ".json": "application/json",
  ".yaml": "text/yaml",
  ".yml": "text/yaml",
};

/** Every `--file VALUE` and `--file=VALUE` before `--`, in order (citty keeps only the last of a repeated flag). */
export function fileFlagValues(rawArgs: readonly string[]): string[] {
  return flagValues(rawArgs, "file");
}

/**
 * A file on disk, read to be sent with a message: its bytes, its media type (by its extension, else `""`,
 * which the chat refuses naming the file) and its name. A path that names no readable file is a
 * `CliUsageError` that says so; the chat checks its size and type when the message is sent.
 */
export async function readAttachment(path: string, cwd: string): Promise<AttachedFile & { data: Uint8Array }> {
  const full = resolve(cwd, path);
  let info;
  try {
    info = await stat(full);
  } catch {
    throw new CliUsageError(`No file ${path} to attach`);
  }
  if (!info.isFile()) throw new CliUsageError(`${path} is not a file: attach a file (an image, a PDF, a text file)`);
  let bytes: Buffer;
  try {
    bytes = await readFile(full);
  } catch (error) {
    throw new CliUsageError(`Cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  const mediaType = MEDIA_TYPES[extname(full).toLowerCase()] ?? "";
  return { data: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), mediaType, filename: basename(full) };
}

/** What `session.send` takes: the text alone, or the text with its files. */
export function turnInputOf(text: string, files: readonly AttachedFile[]): string | TurnInput {
  return files.length === 0 ? text : { text, files: [...files] };
}

/** `cat.png (image/png, 14 KB)`: a file as the CLI lists it. */
export function describeFile(file: Pick<FileRef, "mediaType" | "filename" | "size">): string {
  return `${file.filename ?? "(unnamed)"} (${file.mediaType || "unknown type"}, ${formatBytes(file.size)})`;
}

function formatBytes(size: number): string {
  if (size < 1024) return `${size} B`;
  if (size < 1024 * 1024) return `${Math.round(size / 1024)} KB`;
  return `${(size / (1024 * 1024)).toFixed(1)} MB`;
}
