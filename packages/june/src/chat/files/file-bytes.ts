/** The magic bytes of the image types a chat checks, and PDF's. */
const SIGNATURES: Record<string, (bytes: Uint8Array) => boolean> = {
  "image/png": (b) => starts(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  "image/jpeg": (b) => starts(b, [0xff, 0xd8, 0xff]),
  "image/gif": (b) => ascii(b, 0, "GIF87a") || ascii(b, 0, "GIF89a"),
  "image/webp": (b) => ascii(b, 0, "RIFF") && ascii(b, 8, "WEBP"),
  "application/pdf": (b) => ascii(b, 0, "%PDF-"),
};

/**
 * Why `bytes` are not what `mediaType` says, or undefined: an image (png, jpeg, gif, webp) or a PDF must start
 * with its type's magic bytes, and text (`text/*`) must be UTF-8. Other types are taken as they are.
 */
export function checkFileBytes(mediaType: string, bytes: Uint8Array): string | undefined {
  const signature = SIGNATURES[mediaType];
  if (signature) return signature(bytes) ? undefined : `its bytes are not ${mediaType} (they do not start as one does)`;
  if (mediaType.startsWith("text/")) {
    try {
      new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    } catch {
      return `its bytes are not UTF-8 text (${mediaType})`;
    }
  }
  return undefined;
}

function starts(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return bytes.length >= prefix.length && prefix.every((byte, i) => bytes[i] === byte);
}

function ascii(bytes: Uint8Array, at: number, text: string): boolean {
  if (bytes.length < at + text.length) return false;
  for (let i = 0; i < text.length; i++) if (bytes[at + i] !== text.charCodeAt(i)) return false;
  return true;
}
