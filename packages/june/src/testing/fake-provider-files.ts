/**
 * The files a request to a fake provider server carried, read from the provider's own wire format: OpenAI
 * Chat Completions (`image_url`, `file`, `input_audio` parts), OpenAI Responses (`input_image`, `input_file`),
 * Anthropic Messages (`image` and `document` blocks) and Gemini (`inlineData`, `fileData`). Inline content is
 * decoded to its bytes, so a test can check that what it sent reached the wire byte for byte.
 */

/** A file whose bytes were in the request (base64, a `data:` URL, or a text document's text). */
export interface FakeModelInlineFile {
  type: "inline";
  /** The media type the wire declared (`image/png`, `application/pdf`, `audio/wav`...). */
  mediaType: string;
  /** The decoded bytes. */
  data: Uint8Array;
  /** The file name the wire carried (OpenAI's `filename`, Anthropic's document `title`), if any. */
  filename?: string;
  /** The wire's name for the part: `image_url`, `file`, `input_audio`, `input_image`, `input_file`, `image`, `document`, `inlineData`. */
  part: string;
  /** The role of the message that held it (`user`, `tool`...). */
  role: string;
}

/** A file the request only pointed at: a URL, or a provider file id. */
export interface FakeModelReferencedFile {
  type: "reference";
  /** The URL (`https://...`, `gs://...`) or the provider's file id (`file-abc`). */
  reference: string;
  /** The media type the wire declared, if it declared one. */
  mediaType?: string;
  filename?: string;
  part: string;
  role: string;
}

/** A file a request carried. */
export type FakeModelFile = FakeModelInlineFile | FakeModelReferencedFile;

type Json = Record<string, any>;

/** The files of an OpenAI request, Chat Completions (`messages`) or Responses (`input`). */
export function openAIFiles(body: Json | undefined): FakeModelFile[] {
  const files: FakeModelFile[] = [];
  const items: unknown[] = Array.isArray(body?.messages) ? body.messages : Array.isArray(body?.input) ? body.input : [];
  for (const item of items) {
    if (!isObject(item)) continue;
    const role = typeof item.role === "string" ? item.role : String(item.type ?? "");
    // A tool's output on the Responses API (`function_call_output`) may hold parts of its own.
    const content = Array.isArray(item.content) ? item.content : Array.isArray(item.output) ? item.output : [];
    for (const part of content) {
      if (!isObject(part)) continue;
      const file = openAIPart(part, role);
      if (file) files.push(file);
    }
  }
  return files;
}

function openAIPart(part: Json, role: string): FakeModelFile | undefined {
  switch (part.type) {
    case "image_url":
      return fromUrl(String(part.image_url?.url ?? ""), { part: "image_url", role });
    case "input_audio": {
      const format = String(part.input_audio?.format ?? "");
      const mediaType = format === "mp3" ? "audio/mpeg" : `audio/${format}`;
      return inline(mediaType, base64Bytes(String(part.input_audio?.data ?? "")), { part: "input_audio", role });
    }
    case "file": {
      const file = isObject(part.file) ? part.file : {};
      if (typeof file.file_id === "string") return { type: "reference", reference: file.file_id, part: "file", role };
      return fromUrl(String(file.file_data ?? ""), { part: "file", role, filename: stringOr(file.filename) });
    }
    case "input_image":
      if (typeof part.file_id === "string") return { type: "reference", reference: part.file_id, part: "input_image", role };
      return fromUrl(String(part.image_url ?? ""), { part: "input_image", role });
    case "input_file":
      if (typeof part.file_id === "string") return { type: "reference", reference: part.file_id, part: "input_file", role, filename: stringOr(part.filename) };
      if (typeof part.file_url === "string") return { type: "reference", reference: part.file_url, part: "input_file", role, filename: stringOr(part.filename) };
      return fromUrl(String(part.file_data ?? ""), { part: "input_file", role, filename: stringOr(part.filename) });
    default:
      return undefined;
  }
}

/** The files of an Anthropic Messages request: `image` and `document` blocks, in tool results too. */
export function anthropicFiles(body: Json | undefined): FakeModelFile[] {
  const files: FakeModelFile[] = [];
  const visit = (blocks: unknown, role: string) => {
    if (!Array.isArray(blocks)) return;
    for (const block of blocks) {
      if (!isObject(block)) continue;
      if (block.type === "tool_result") visit(block.content, role);
      if (block.type !== "image" && block.type !== "document") continue;
      const source = isObject(block.source) ? block.source : {};
      const filename = stringOr(block.title);
      if (source.type === "base64") {
        files.push(inline(String(source.media_type ?? ""), base64Bytes(String(source.data ?? "")), { part: block.type, role, filename }));
      } else if (source.type === "text") {
        files.push(inline(String(source.media_type ?? "text/plain"), new TextEncoder().encode(String(source.data ?? "")), { part: block.type, role, filename }));
      } else if (source.type === "url" || source.type === "file") {
        const reference = String(source.url ?? source.file_id ?? "");
        files.push({ type: "reference", reference, part: block.type, role, ...(filename !== undefined && { filename }) });
      }
    }
  };
  for (const message of Array.isArray(body?.messages) ? body.messages : []) {
    if (isObject(message)) visit(message.content, String(message.role ?? ""));
  }
  return files;
}

/** The files of a Gemini request: `inlineData` and `fileData` parts of its `contents`. */
export function googleFiles(body: Json | undefined): FakeModelFile[] {
  const files: FakeModelFile[] = [];
  for (const content of Array.isArray(body?.contents) ? body.contents : []) {
    if (!isObject(content) || !Array.isArray(content.parts)) continue;
    const role = String(content.role ?? "");
    for (const part of content.parts) {
      if (!isObject(part)) continue;
      if (isObject(part.inlineData)) {
        files.push(inline(String(part.inlineData.mimeType ?? ""), base64Bytes(String(part.inlineData.data ?? "")), { part: "inlineData", role }));
      } else if (isObject(part.fileData)) {
        const mediaType = stringOr(part.fileData.mimeType);
        files.push({ type: "reference", reference: String(part.fileData.fileUri ?? ""), part: "fileData", role, ...(mediaType !== undefined && { mediaType }) });
      }
    }
  }
  return files;
}

const DATA_URL = /^data:([^;,]*)((?:;[^;,=]+=[^;,]*)*)(;base64)?,(.*)$/s;

/** A `data:` URL decoded, or a reference to any other URL. */
function fromUrl(url: string, at: { part: string; role: string; filename?: string }): FakeModelFile {
  const match = DATA_URL.exec(url);
  if (!match) return { type: "reference", reference: url, ...definedOnly(at) };
  const [, mediaType, , base64, payload] = match;
  const data = base64 ? base64Bytes(payload!) : new TextEncoder().encode(decodeURIComponent(payload!));
  return inline(mediaType || "text/plain", data, at);
}

function inline(mediaType: string, data: Uint8Array, at: { part: string; role: string; filename?: string }): FakeModelInlineFile {
  return { type: "inline", mediaType, data, ...definedOnly(at) };
}

function definedOnly<T extends { filename?: string }>(at: T): T {
  const { filename, ...rest } = at;
  return (filename === undefined ? rest : at) as T;
}

function base64Bytes(text: string): Uint8Array {
  return new Uint8Array(Buffer.from(text, "base64"));
}

function stringOr(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
