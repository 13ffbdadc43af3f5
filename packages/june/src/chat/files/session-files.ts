import { createHash } from "node:crypto";
import type { FilePart, ModelMessage } from "ai";
import type { ChatStore, FileRef, StoredFile } from "../../stores/types.js";
import type { TurnRecord } from "../types.js";
import type { TurnFile } from "./turn-input.js";

/**
 * A turn's text and files as a session hands them to its run: files just sent carry their bytes (`data`), to be
 * stored; files of an earlier turn (`regenerate`) are references only, their bytes in the store already.
 */
export interface TurnFiles {
  text: string;
  files: readonly (FileRef & { data?: Uint8Array })[];
}

/** A file's reference alone (what the journal keeps), in the journal's key order. */
export function fileRefOf(file: FileRef): FileRef {
  return { id: file.id, mediaType: file.mediaType, ...(file.filename !== undefined ? { filename: file.filename } : {}), size: file.size, sha256: file.sha256 };
}

/**
 * Stores the files a turn sent (`putFile`: one copy per content) and reads the bytes of those it refers to
 * (`getFile`), before its `turn-start` is journaled: resolves to every file with its bytes, in order. A file
 * the store lost (or one it stored under another id) is an error naming it.
 */
export async function storeTurnFiles(store: ChatStore, sessionId: string, files: TurnFiles["files"]): Promise<TurnFile[]> {
  const out: TurnFile[] = [];
  for (const file of files) {
    if (file.data === undefined) {
      out.push(...(await loadTurnFiles(store, sessionId, [file])));
      continue;
    }
    const stored = await store.putFile!(sessionId, { bytes: file.data, mediaType: file.mediaType, ...(file.filename !== undefined ? { filename: file.filename } : {}) });
    if (stored.id !== file.id || stored.sha256 !== file.sha256 || stored.size !== file.size) {
      throw new Error(`june: the store kept file "${file.filename ?? file.id}" as ${stored.id} (${stored.size} bytes), not by its SHA-256 ${file.id} (${file.size} bytes)`);
    }
    out.push({ ...fileRefOf(file), data: file.data });
  }
  return out;
}

/** The bytes of files the session keeps, by their references, in order; an error naming a file the store lost. */
export async function loadTurnFiles(store: ChatStore, sessionId: string, refs: readonly FileRef[]): Promise<TurnFile[]> {
  const out: TurnFile[] = [];
  for (const ref of refs) out.push({ ...fileRefOf(ref), data: await fileBytes(store, sessionId, ref) });
  return out;
}

async function fileBytes(store: ChatStore, sessionId: string, ref: FileRef): Promise<Uint8Array> {
  const stored = typeof store.getFile === "function" ? await store.getFile(sessionId, ref.id) : undefined;
  if (!stored) throw new Error(`june: file "${ref.filename ?? ref.id}" (${ref.id}) of session "${sessionId}" is not in its store`);
  return stored.bytes;
}

/** What an earlier turn's file part holds until its bytes are read: `june-file:<id>` (see `filePlaceholder`). */
const PLACEHOLDER = "june-file:";

/**
 * An earlier turn's file as a context builder renders it: an AI SDK file part whose `data` is the URL
 * `june-file:<id>`, which the session replaces with the file's bytes (`withFileBytes`) before any responder sees
 * it. Builders stay pure and never read the store.
 */
export function filePlaceholder(ref: FileRef): FilePart {
  return { type: "file", data: new URL(`${PLACEHOLDER}${ref.id}`), mediaType: ref.mediaType, ...(ref.filename !== undefined ? { filename: ref.filename } : {}) };
}

/** The file id a part's placeholder names, or undefined for any other part. */
function placeholderId(part: unknown): string | undefined {
  if (typeof part !== "object" || part === null || (part as { type?: unknown }).type !== "file") return undefined;
  const data = (part as { data?: unknown }).data;
  const url = data instanceof URL ? data.href : typeof data === "string" ? data : undefined;
  return url?.startsWith(PLACEHOLDER) ? url.slice(PLACEHOLDER.length) : undefined;
}

/**
 * The messages with every file placeholder replaced by the file's bytes from the store (each file read once):
 * new message objects where a part changed, the others as they were (a builder's own, maybe cached, are never
 * changed). An error naming a file the store lost.
 */
export async function withFileBytes(messages: ModelMessage[], store: ChatStore, sessionId: string): Promise<ModelMessage[]> {
  let out: ModelMessage[] | undefined;
  const bytes = new Map<string, Promise<Uint8Array>>();
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i]!;
    if (message.role !== "user" || typeof message.content === "string") continue;
    if (!message.content.some((part) => placeholderId(part) !== undefined)) continue;
    const content = [];
    for (const part of message.content) {
      const id = placeholderId(part);
      if (id === undefined) {
        content.push(part);
        continue;
      }
      const file = part as FilePart;
      let read = bytes.get(id);
      if (!read) {
        read = fileBytes(store, sessionId, { id, mediaType: file.mediaType, size: 0, sha256: id, ...(file.filename !== undefined ? { filename: file.filename } : {}) });
        bytes.set(id, read);
      }
      content.push({ ...file, data: await read });
    }
    out ??= messages.slice();
    out[i] = { ...message, content };
  }
  return out ?? messages;
}

/**
 * A file one of `records` sent, as that turn journaled it, with its bytes from the store; undefined when no
 * turn sent it or the store does not have it.
 */
export async function readSessionFile(store: ChatStore, sessionId: string, records: readonly TurnRecord[], fileId: string): Promise<StoredFile | undefined> {
  let ref: FileRef | undefined;
  for (const record of records) {
    ref = record.files?.find((file) => file.id === fileId);
    if (ref) break;
  }
  if (!ref || typeof store.getFile !== "function") return undefined;
  const stored = await store.getFile(sessionId, fileId);
  return stored ? { ref: fileRefOf(ref), bytes: stored.bytes } : undefined;
}

/**
 * A durable turn's checkpoint state with every file part whose bytes are a file the session keeps (`known`, by
 * SHA-256) holding the placeholder `june-file:<id>` instead: a checkpoint holds references, never the bytes
 * (`withStateFileBytes` puts them back on resume). New objects only where something changed.
 */
export function referenceStateFiles(state: unknown, known: ReadonlySet<string>): unknown {
  if (known.size === 0) return state;
  return mapFileParts(state, (part) => {
    const data = bytesOf(part.data);
    if (data === undefined) return part;
    const id = createHash("sha256").update(data).digest("hex");
    return known.has(id) ? { ...part, data: `${PLACEHOLDER}${id}` } : part;
  });
}

/** A checkpoint state's file placeholders filled with the files' bytes from the store (see `referenceStateFiles`). */
export async function withStateFileBytes(state: unknown, store: ChatStore, sessionId: string): Promise<unknown> {
  const ids = new Set<string>();
  mapFileParts(state, (part) => {
    const id = placeholderId(part);
    if (id !== undefined) ids.add(id);
    return part;
  });
  if (ids.size === 0) return state;
  const bytes = new Map<string, Uint8Array>();
  for (const id of ids) bytes.set(id, await fileBytes(store, sessionId, { id, mediaType: "", size: 0, sha256: id }));
  return mapFileParts(state, (part) => {
    const id = placeholderId(part);
    return id === undefined ? part : { ...part, data: bytes.get(id)! };
  });
}

/**
 * A file part's bytes: a `Uint8Array`, or one a JSON copy of the state made a plain object (`{ "0": 137, … }`,
 * what `JSON.stringify` makes of one); undefined for anything else (a URL, base64 text).
 */
function bytesOf(data: unknown): Uint8Array | undefined {
  if (data instanceof Uint8Array) return data;
  if (typeof data !== "object" || data === null || Array.isArray(data)) return undefined;
  const values = Object.values(data as Record<string, unknown>);
  const keys = Object.keys(data as Record<string, unknown>);
  if (keys.length === 0) return undefined;
  for (let i = 0; i < keys.length; i++) {
    const v = values[i];
    if (keys[i] !== String(i) || typeof v !== "number" || !Number.isInteger(v) || v < 0 || v > 255) return undefined;
  }
  return Uint8Array.from(values as number[]);
}

type AnyFilePart = { type: "file"; data: unknown; mediaType?: unknown };

/** `value` with `map` applied to every file part in it (any depth), copied only along the paths that changed. */
function mapFileParts(value: unknown, map: (part: AnyFilePart) => AnyFilePart): unknown {
  if (typeof value !== "object" || value === null || value instanceof Uint8Array) return value;
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const next = mapFileParts(value[i], map);
      if (next !== value[i]) (out ??= value.slice())[i] = next;
    }
    return out ?? value;
  }
  const record = value as Record<string, unknown>;
  if (record.type === "file" && "data" in record) return map(record as AnyFilePart);
  let out: Record<string, unknown> | undefined;
  for (const key of Object.keys(record)) {
    const next = mapFileParts(record[key], map);
    if (next !== record[key]) (out ??= { ...record })[key] = next;
  }
  return out ?? value;
}
