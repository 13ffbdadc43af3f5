import { DEFAULT_FILE_LIMITS, type FileLimits, type TurnInput } from "../chat/files/turn-input.js";
import type { Session } from "../chat/types.js";
import { valueKind } from "../errors/value-kind.js";
import { type JsonObject, readBytes, readJsonObject } from "./body.js";
import type { HandlerContext } from "./handler-context.js";
import { HttpError } from "./http-error.js";

/** One file of a turn's input, as `session.send` takes it. */
export type TurnFileInput = NonNullable<TurnInput["files"]>[number];

/** A request body that may carry files: its fields (`input`...) and its files, in order. */
export interface TurnBody {
  fields: JsonObject;
  files: TurnFileInput[];
}

/**
 * The largest body a route that takes files reads: the handler's `maxBodyBytes` for the rest, plus room for
 * the chat's `files.maxFiles` files of `files.maxBytes` each, base64-encoded (a third more) with their fields.
 * Past it, a 413 before anything is parsed; each file is then checked against the chat's limits by the
 * session (`FileRejectedError`: 413, 415 or 400 naming the file).
 */
export function fileBodyBytes(context: HandlerContext): number {
  const { maxFiles, maxBytes } = fileLimits(context);
  return context.maxBodyBytes + maxFiles * (Math.ceil(maxBytes / 3) * 4 + 1024);
}

/**
 * `POST /sessions/:id/turns`' body: JSON (`{ input, files: [{ data, mediaType, filename? }] }`, `data` base64
 * or a `data:` URL) or `multipart/form-data` (an `input` field and each file a `files` part, its bytes as they
 * are, its type and name the part's own). Other fields come back for the route to check.
 */
export async function readTurnBody(request: Request, context: HandlerContext): Promise<TurnBody> {
  const maxBytes = fileBodyBytes(context);
  const type = request.headers.get("content-type") ?? "";
  if (type.split(";")[0]!.trim().toLowerCase() !== "multipart/form-data") {
    const fields = await readJsonObject(request, { maxBytes });
    const files = jsonFiles(fields.files);
    const { files: _files, ...rest } = fields;
    return { fields: rest, files };
  }
  const bytes = await readBytes(request, maxBytes);
  let form: FormData;
  try {
    form = await new Response(bytes as Uint8Array<ArrayBuffer>, { headers: { "content-type": type } }).formData();
  } catch (error) {
    throw new HttpError(400, "Request body is not valid multipart/form-data", { cause: error });
  }
  const fields: JsonObject = {};
  const files: TurnFileInput[] = [];
  const entries: [string, FormDataEntryValue][] = [];
  form.forEach((value, name) => entries.push([name, value]));
  for (const [name, value] of entries) {
    if (typeof value !== "string") {
      if (name !== "files" && name !== "file") throw new HttpError(400, `A file part must be named "files", got "${name.slice(0, 64)}"`);
      files.push({ data: new Uint8Array(await value.arrayBuffer()), mediaType: value.type, ...(value.name !== "" && value.name !== "blob" && { filename: value.name }) });
    } else {
      if (name in fields) throw new HttpError(400, `The form field "${name.slice(0, 64)}" is given twice`);
      fields[name] = value;
    }
  }
  return { fields, files };
}

/** The `files` of a JSON body: each `{ data, mediaType?, filename? }`, `data` a string (base64 or a `data:` URL). */
function jsonFiles(value: unknown): TurnFileInput[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new HttpError(400, `"files" must be an array of { data, mediaType, filename? }, got ${valueKind(value)}`);
  return value.map((file: unknown, index): TurnFileInput => {
    if (typeof file !== "object" || file === null || Array.isArray(file)) throw new HttpError(400, `files[${index}] must be an object, got ${valueKind(file)}`);
    const { data, mediaType, filename, ...rest } = file as JsonObject;
    const unknown = Object.keys(rest)[0];
    if (unknown !== undefined) throw new HttpError(400, `files[${index}] has an unknown field "${unknown.slice(0, 64)}" (expected "data", "mediaType", "filename")`);
    if (typeof data !== "string") throw new HttpError(400, `files[${index}].data must be a string (base64 or a data: URL), got ${valueKind(data)}`);
    if (mediaType !== undefined && typeof mediaType !== "string") throw new HttpError(400, `files[${index}].mediaType must be a string, got ${valueKind(mediaType)}`);
    if (filename !== undefined && typeof filename !== "string") throw new HttpError(400, `files[${index}].filename must be a string, got ${valueKind(filename)}`);
    return { data, mediaType: mediaType ?? "", ...(filename !== undefined && { filename }) };
  });
}

/**
 * The files of a `useChat` user message: its `file` parts (`{ type: "file", mediaType, filename?, url }`).
 * A `data:` URL is the file; a URL of this session's own file route (a message restored from
 * `/ui-messages` and sent again) is that file, read from the store; any other URL is passed on as it is,
 * which the session refuses (400, `FileRejectedError` "url": fetching it from the server is an SSRF) unless
 * the chat allows it (`files.allowUrl`), when it is fetched here, within the chat's `files.maxBytes`.
 */
export async function uiMessageFiles(parts: readonly JsonObject[], session: Session, context: HandlerContext, signal: AbortSignal): Promise<TurnFileInput[]> {
  const files: TurnFileInput[] = [];
  for (const [index, part] of parts.filter((p) => p.type === "file").entries()) {
    const { url, mediaType } = part;
    const filename = typeof part.filename === "string" ? part.filename : undefined;
    const named = filename !== undefined ? `File "${filename.slice(0, 200)}"` : `File ${index + 1}`;
    if (typeof url !== "string") throw new HttpError(400, `${named} of the last user message has no "url"`);
    if (mediaType !== undefined && typeof mediaType !== "string") throw new HttpError(400, `${named}'s "mediaType" must be a string, got ${valueKind(mediaType)}`);
    const base = { mediaType: mediaType ?? "", ...(filename !== undefined && { filename }) };
    if (/^data:/i.test(url)) {
      files.push({ ...base, data: url });
      continue;
    }
    const own = ownFileId(url, session.id);
    if (own !== undefined) {
      const stored = await session.file(own);
      if (!stored) throw new HttpError(400, `${named} names a file chat "${session.id}" does not have`);
      files.push({ data: stored.bytes, mediaType: stored.ref.mediaType, ...(stored.ref.filename !== undefined && { filename: stored.ref.filename }) });
      continue;
    }
    if (!fileLimits(context).allowUrl || !/^https?:/i.test(url)) {
      // The session refuses it, naming the file, before anything is stored.
      files.push({ ...base, data: url });
      continue;
    }
    const fetched = await fetchFile(url, named, fileLimits(context).maxBytes, signal);
    // The part's declared type first: the session checks the bytes against it.
    files.push({ ...base, data: fetched.data, mediaType: base.mediaType || fetched.mediaType || "" });
  }
  return files;
}

/** The chat's file limits (`createChat({ files })`), or the defaults of a chat that does not say. */
function fileLimits(context: HandlerContext): FileLimits {
  return context.chat.files ?? DEFAULT_FILE_LIMITS;
}

/** The file id when `url` is this session's own file route (`…/sessions/:id/files/:fileId`, any origin or base path). */
function ownFileId(url: string, sessionId: string): string | undefined {
  let path: string;
  try {
    path = new URL(url, "http://june.invalid").pathname;
  } catch {
    return undefined;
  }
  const match = /\/sessions\/([^/]+)\/files\/([^/]+)$/.exec(path);
  if (!match) return undefined;
  try {
    return decodeURIComponent(match[1]!) === sessionId ? decodeURIComponent(match[2]!) : undefined;
  } catch {
    return undefined;
  }
}

/** Fetches a remote file for a chat that allows it (`files.allowUrl`), reading no more than `maxBytes`. */
async function fetchFile(url: string, named: string, maxBytes: number, signal: AbortSignal): Promise<{ data: Uint8Array; mediaType?: string }> {
  let response: Response;
  try {
    response = await fetch(url, { signal, redirect: "follow" });
  } catch (error) {
    throw new HttpError(400, `${named}: fetching ${url.slice(0, 200)} failed`, { cause: error });
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => {});
    throw new HttpError(400, `${named}: fetching ${url.slice(0, 200)} answered ${response.status}`);
  }
  let data: Uint8Array;
  try {
    data = await readBytes(response, maxBytes);
  } catch (error) {
    if (HttpError.isInstance(error) && error.status === 413) throw new HttpError(413, `${named} is larger than the chat's limit of ${maxBytes} bytes`);
    throw error;
  }
  const type = response.headers.get("content-type")?.split(";")[0]?.trim();
  return { data, ...(type && { mediaType: type }) };
}
