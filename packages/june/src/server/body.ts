import { valueKind } from "../errors/value-kind.js";
import { HttpError } from "./http-error.js";

/** A parsed JSON object body. */
export type JsonObject = Record<string, unknown>;

export interface ReadBodyOptions {
  /** Largest body accepted, in bytes; past it the request gets a 413. */
  maxBytes: number;
  /** Whether an empty body reads as `{}` (default false: an empty body is a 400). */
  allowEmpty?: boolean;
}

/**
 * Reads a request's body as a JSON object, stopping as soon as it grows past `maxBytes` (413). A non-empty
 * body must say `Content-Type: application/json` (415 otherwise). A body that is not JSON, or JSON that is
 * not an object, is a 400 naming what was wrong.
 */
export async function readJsonObject(request: Request, options: ReadBodyOptions): Promise<JsonObject> {
  const text = await readText(request, options.maxBytes);
  if (text.trim() === "") {
    if (options.allowEmpty) return {};
    throw new HttpError(400, "Request body is empty: expected a JSON object");
  }
  // A JSON content type cannot be sent cross-site without a CORS preflight: a plain form post never gets here.
  const type = request.headers.get("content-type");
  if (!isJsonContentType(type)) {
    throw new HttpError(415, `Content-Type must be application/json, got ${type === null ? "none" : JSON.stringify(type.slice(0, 100))}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new HttpError(400, "Request body is not valid JSON");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new HttpError(400, `Request body must be a JSON object, got ${valueKind(value)}`);
  }
  return value as JsonObject;
}

function isJsonContentType(type: string | null): boolean {
  if (type === null) return false;
  const essence = type.split(";")[0].trim().toLowerCase();
  return essence === "application/json" || (essence.startsWith("application/") && essence.endsWith("+json"));
}

async function readText(request: Request, maxBytes: number): Promise<string> {
  const bytes = await readBytes(request, maxBytes);
  const decoder = new TextDecoder("utf-8", { fatal: true });
  try {
    return decoder.decode(bytes);
  } catch {
    throw new HttpError(400, "Request body is not valid UTF-8");
  }
}

/**
 * A request's (or a response's) body as bytes, stopping as soon as it grows past `maxBytes` (413, also when
 * its `Content-Length` says so before anything is read).
 */
export async function readBytes(message: { headers: Headers; body: ReadableStream<Uint8Array> | null }, maxBytes: number): Promise<Uint8Array> {
  const declared = message.headers.get("content-length");
  if (declared !== null && Number(declared) > maxBytes) throw tooLarge(maxBytes);
  if (!message.body) return new Uint8Array(0);
  const reader = message.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    let next: ReadableStreamReadResult<Uint8Array>;
    try {
      next = await reader.read();
    } catch (error) {
      throw new HttpError(400, "Request body could not be read", { cause: error });
    }
    if (next.done) break;
    size += next.value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge(maxBytes);
    }
    chunks.push(next.value);
  }
  return concat(chunks, size);
}

function concat(chunks: Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 0) return new Uint8Array(0);
  if (chunks.length === 1) return chunks[0];
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

function tooLarge(maxBytes: number): HttpError {
  return new HttpError(413, `Request body is larger than ${maxBytes} bytes`);
}

/** A required string field; `nonEmpty` also refuses `""` and whitespace. */
export function requireString(body: JsonObject, field: string, options: { nonEmpty?: boolean; maxChars?: number } = {}): string {
  const value = body[field];
  if (typeof value !== "string") throw new HttpError(400, `"${field}" must be a string, got ${valueKind(value)}`);
  if (options.nonEmpty && value.trim() === "") throw new HttpError(400, `"${field}" must not be empty`);
  if (options.maxChars !== undefined && value.length > options.maxChars) {
    throw new HttpError(413, `"${field}" is ${value.length} characters, over the limit of ${options.maxChars}`);
  }
  return value;
}

/** An optional string field: `undefined` when absent or null. */
export function optionalString(body: JsonObject, field: string, options: { maxChars?: number } = {}): string | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  return requireString(body, field, options);
}

/** An optional JSON object field. */
export function optionalObject(body: JsonObject, field: string): JsonObject | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "object" || Array.isArray(value)) throw new HttpError(400, `"${field}" must be an object, got ${valueKind(value)}`);
  return value as JsonObject;
}

/** Refuses fields the route does not know, so a typo (`{ "inptu": ... }`) is a 400, not silently ignored. */
export function rejectUnknownFields(body: JsonObject, known: readonly string[]): void {
  for (const key of Object.keys(body)) {
    if (!known.includes(key)) throw new HttpError(400, `Unknown field "${key}" (expected ${known.map((k) => `"${k}"`).join(", ")})`);
  }
}
