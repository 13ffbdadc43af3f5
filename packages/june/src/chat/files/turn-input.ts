import { createHash } from "node:crypto";
import type { FilePart, TextPart, UserModelMessage } from "ai";
import type { FileRef } from "../../stores/types.js";
import { InputTooLargeError } from "../errors.js";
import { FileRejectedError } from "./errors.js";
import { checkFileBytes } from "./file-bytes.js";

/** One file of a turn's input, as `session.send({ text, files })` takes it. */
export interface FileInput {
  /** The bytes, as bytes, base64, or a `data:` URL. A remote URL is refused: June never fetches one. */
  data: Uint8Array | string;
  /** What the bytes are (`image/png`). May be `""` for a `data:` URL, whose own media type is then taken. */
  mediaType: string;
  filename?: string;
}

/** A turn's input: its text (may be empty when it sends files) and the files it sends. */
export interface TurnInput {
  text: string;
  files?: FileInput[];
}

/** A turn's file as its responder gets it: the reference the journal keeps, and the bytes. */
export type TurnFile = FileRef & { data: Uint8Array };

/** What a chat takes in a turn's files (`createChat({ files })`), resolved: see `resolveFileLimits`. */
export interface FileLimits {
  /** The largest file, in bytes. */
  readonly maxBytes: number;
  /** The most files in one turn. */
  readonly maxFiles: number;
  /** The media types taken: exact (`image/png`) or a family (`text/*`). */
  readonly mediaTypes: readonly string[];
  /** Whether a server may fetch a file given by an `http(s)` URL for the chat (the library itself never does). */
  readonly allowUrl: boolean;
}

/** `createChat({ files })`: limits on a turn's files (each left out takes its default), or `false` for none. */
export type FilesOption = Partial<{ -readonly [K in keyof FileLimits]: FileLimits[K] }> | false;

/** Images (png, jpeg, gif, webp), PDF and text: what a chat takes by default. */
export const DEFAULT_MEDIA_TYPES: readonly string[] = Object.freeze(["image/png", "image/jpeg", "image/gif", "image/webp", "application/pdf", "text/*"]);
export const DEFAULT_FILE_LIMITS: FileLimits = Object.freeze({ maxBytes: 10 * 1024 * 1024, maxFiles: 10, mediaTypes: DEFAULT_MEDIA_TYPES, allowUrl: false });

/** The chat's file limits from its `files` option; `TypeError` for a bad one. */
export function resolveFileLimits(option: FilesOption | undefined): FileLimits {
  if (option === undefined) return DEFAULT_FILE_LIMITS;
  if (option === false) return Object.freeze({ maxBytes: 0, maxFiles: 0, mediaTypes: Object.freeze([]), allowUrl: false });
  if (typeof option !== "object" || option === null) throw new TypeError("createChat: `files` must be an object ({ maxBytes, maxFiles, mediaTypes, allowUrl }) or false");
  const count = (key: "maxBytes" | "maxFiles"): number => {
    const value = option[key] ?? DEFAULT_FILE_LIMITS[key];
    if (!Number.isSafeInteger(value) || value < 0) throw new TypeError(`createChat: files.${key} must be a whole number of at least 0, got ${String(value)}`);
    return value;
  };
  const mediaTypes = option.mediaTypes ?? DEFAULT_MEDIA_TYPES;
  if (!Array.isArray(mediaTypes) || mediaTypes.some((type) => typeof type !== "string" || !/^[a-z0-9!#$&^_.+-]+\/(\*|[a-z0-9!#$&^_.+-]+)$/i.test(type))) {
    throw new TypeError(`createChat: files.mediaTypes must be a list of media types ("image/png", "text/*")`);
  }
  if (option.allowUrl !== undefined && typeof option.allowUrl !== "boolean") throw new TypeError("createChat: files.allowUrl must be a boolean");
  return Object.freeze({
    maxBytes: count("maxBytes"),
    maxFiles: count("maxFiles"),
    mediaTypes: Object.freeze(mediaTypes.map((type) => type.toLowerCase())),
    allowUrl: option.allowUrl ?? false,
  });
}

/** A turn's input once checked: its text and its files, decoded, hashed and checked. */
export interface NormalizedInput {
  text: string;
  files: TurnFile[];
}

/**
 * The one place a turn's input is read (`session.send`, `edit`): a string, or `{ text, files }`. Decodes each
 * file (bytes, base64, `data:` URL), checks it against the chat's limits and its bytes against its declared
 * type, and hashes it. Throws, with nothing done: `TypeError` for a malformed input (not a string or an object
 * with a string `text`; empty with no file), `InputTooLargeError` past `maxInputChars`, `FileRejectedError`
 * naming the file it refuses.
 */
export function normalizeTurnInput(input: unknown, limits: FileLimits, maxInputChars: number): NormalizedInput {
  if (typeof input === "string") return { text: checkText(input, maxInputChars, false), files: [] };
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    throw new TypeError(`input must be a string or { text, files }, got ${input === null ? "null" : Array.isArray(input) ? "an array" : typeof input}`);
  }
  const { text, files } = input as { text?: unknown; files?: unknown };
  if (files !== undefined && !Array.isArray(files)) throw new TypeError(`input.files must be a list of files ({ data, mediaType, filename? }), got ${typeof files}`);
  const list = (files ?? []) as unknown[];
  if (typeof text !== "string") throw new TypeError(`input.text must be a string, got ${text === null ? "null" : typeof text}`);
  checkText(text, maxInputChars, list.length > 0);
  if (list.length > limits.maxFiles) {
    throw new FileRejectedError("too-many", -1, undefined, `${list.length} files, the chat takes at most ${limits.maxFiles} in a turn (files.maxFiles)`);
  }
  return { text, files: list.map((file, index) => normalizeFile(file, index, limits)) };
}

function checkText(text: string, maxInputChars: number, withFiles: boolean): string {
  if (text.length === 0 && !withFiles) throw new TypeError("input must not be empty");
  if (text.length > maxInputChars) throw new InputTooLargeError(text.length, maxInputChars);
  return text;
}

function normalizeFile(file: unknown, index: number, limits: FileLimits): TurnFile {
  if (typeof file !== "object" || file === null) throw new TypeError(`input.files[${index}] must be { data, mediaType, filename? }, got ${file === null ? "null" : typeof file}`);
  const { data, mediaType, filename } = file as { data?: unknown; mediaType?: unknown; filename?: unknown };
  if (filename !== undefined && (typeof filename !== "string" || filename.length === 0 || filename.length > 255)) {
    throw new TypeError(`input.files[${index}].filename must be a string of 1 to 255 characters`);
  }
  const name = filename as string | undefined;
  const reject = (reason: ConstructorParameters<typeof FileRejectedError>[0], detail: string) => new FileRejectedError(reason, index, name, detail);
  if (typeof mediaType !== "string") throw new TypeError(`input.files[${index}].mediaType must be a string (image/png), got ${typeof mediaType}`);
  let bytes: Uint8Array;
  let type = mediaType.trim();
  if (data instanceof Uint8Array) bytes = data;
  else if (typeof data === "string") {
    if (/^https?:/i.test(data)) throw reject("url", "a remote URL is not taken: send the bytes (the chat never fetches a URL)");
    if (/^data:/i.test(data)) {
      const decoded = decodeDataUrl(data);
      if (!decoded) throw reject("malformed", "its data: URL is malformed");
      if (type === "") type = decoded.mediaType;
      else if (decoded.mediaType !== "" && essence(decoded.mediaType) !== essence(type)) {
        throw reject("malformed", `its data: URL says ${decoded.mediaType}, its mediaType ${type}`);
      }
      bytes = decoded.bytes;
    } else {
      const decoded = decodeBase64(data);
      if (!decoded) throw reject("malformed", "its data is neither base64 nor a data: URL");
      bytes = decoded;
    }
  } else throw new TypeError(`input.files[${index}].data must be bytes (Uint8Array), base64 or a data: URL, got ${data === null ? "null" : typeof data}`);
  if (!/^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+(\s*;.*)?$/i.test(type)) throw reject("malformed", `its mediaType "${type}" is not a media type`);
  if (!allowed(essence(type), limits.mediaTypes)) {
    throw reject("type-not-allowed", `${essence(type)} is not a type the chat takes (files.mediaTypes: ${limits.mediaTypes.join(", ") || "none"})`);
  }
  if (bytes.byteLength > limits.maxBytes) throw reject("too-large", `${bytes.byteLength} bytes, the chat takes at most ${limits.maxBytes} (files.maxBytes)`);
  if (bytes.byteLength === 0) throw reject("malformed", "it is empty");
  const problem = checkFileBytes(essence(type), bytes);
  if (problem) throw reject("malformed", problem);
  // A copy: the caller's array may change after send.
  const own = new Uint8Array(bytes);
  const sha256 = createHash("sha256").update(own).digest("hex");
  return { id: sha256, mediaType: type, ...(name !== undefined ? { filename: name } : {}), size: own.byteLength, sha256, data: own };
}

/** A media type's `type/subtype`, lowercase, without parameters. */
function essence(mediaType: string): string {
  return mediaType.split(";")[0]!.trim().toLowerCase();
}

function allowed(type: string, mediaTypes: readonly string[]): boolean {
  return mediaTypes.some((entry) => entry === type || (entry.endsWith("/*") && type.startsWith(entry.slice(0, -1))));
}

const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

function decodeBase64(text: string): Uint8Array | undefined {
  const clean = text.replace(/\s+/g, "");
  if (clean.length === 0 || !BASE64.test(clean) || clean.length % 4 === 1) return undefined;
  return new Uint8Array(Buffer.from(clean.replace(/-/g, "+").replace(/_/g, "/"), "base64"));
}

/** A `data:` URL's media type and bytes (RFC 2397), or undefined when it is not one. */
function decodeDataUrl(url: string): { mediaType: string; bytes: Uint8Array } | undefined {
  const comma = url.indexOf(",");
  if (comma < 0) return undefined;
  const header = url.slice(5, comma);
  const body = url.slice(comma + 1);
  const params = header.split(";");
  const base64 = params.at(-1)?.toLowerCase() === "base64";
  if (base64) params.pop();
  const mediaType = params.join(";").trim();
  if (base64) {
    const bytes = decodeBase64(decodeURIComponentSafe(body) ?? "");
    return bytes ? { mediaType, bytes } : undefined;
  }
  const text = decodeURIComponentSafe(body);
  return text === undefined ? undefined : { mediaType, bytes: new TextEncoder().encode(text) };
}

function decodeURIComponentSafe(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/**
 * A turn's user message as the model gets it: the text alone as a string (what a text turn always sent), or
 * the text (when there is some) then each file as an AI SDK file part.
 */
export function userMessage(text: string, files: readonly Pick<FilePart, "data" | "mediaType" | "filename">[]): UserModelMessage {
  if (files.length === 0) return { role: "user", content: text };
  const content: (TextPart | FilePart)[] = text === "" ? [] : [{ type: "text", text }];
  for (const file of files) content.push({ type: "file", data: file.data, mediaType: file.mediaType, ...(file.filename !== undefined ? { filename: file.filename } : {}) });
  return { role: "user", content };
}
