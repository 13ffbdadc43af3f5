import type { LanguageModelV3CallOptions } from "@ai-sdk/provider";

/** A real 1×1 PNG (70 bytes): its magic bytes, IHDR, one IDAT and IEND. */
export const PNG = new Uint8Array(
  Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==", "base64"),
);

/** A minimal PDF's bytes (the header is what a chat checks). */
export const PDF = new TextEncoder().encode("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n");

/** Bytes a test can tell apart from any other file's: `n` bytes of a seeded sequence after the PNG magic. */
export function pngLike(n: number, seed = 1): Uint8Array {
  const bytes = new Uint8Array(Math.max(n, 8));
  bytes.set(PNG.subarray(0, 8));
  let x = seed >>> 0 || 1;
  for (let i = 8; i < bytes.length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    bytes[i] = x & 0xff;
  }
  return bytes;
}

/** The file parts of a model call's prompt, in order: each one's bytes, media type and name. */
export function promptFiles(call: LanguageModelV3CallOptions): { data: Uint8Array; mediaType: string; filename?: string }[] {
  const out: { data: Uint8Array; mediaType: string; filename?: string }[] = [];
  for (const message of call.prompt) {
    if (message.role !== "user") continue;
    for (const part of message.content) {
      if (part.type !== "file") continue;
      const data = part.data instanceof Uint8Array ? part.data : typeof part.data === "string" ? new Uint8Array(Buffer.from(part.data, "base64")) : undefined;
      if (!data) throw new Error(`a file part whose data is a ${part.data instanceof URL ? `URL (${part.data.href})` : typeof part.data}`);
      out.push({ data, mediaType: part.mediaType, ...(part.filename !== undefined ? { filename: part.filename } : {}) });
    }
  }
  return out;
}
