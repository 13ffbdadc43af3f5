import { SessionNotFoundError } from "../stores/errors.js";
import { HttpError } from "./http-error.js";
import type { RouteContext } from "./router.js";

/** Types a browser may show in place (`inline`): raster images, PDF and plain text. Anything else downloads. */
const INLINE_TYPES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp", "application/pdf", "text/plain"]);

/**
 * `GET /sessions/:id/files/:fileId`: the bytes of a file a turn of the session sent (`session.file`), to the
 * session's owner only. A session that is not the caller's, one that does not exist and a file it does not
 * have are the same 404, so the route tells nobody which sessions or files exist. The answer says its
 * `Content-Type` (the one the journal keeps), `Content-Disposition` (`inline` for images, PDF and plain text,
 * else `attachment`, with the file's name), `X-Content-Type-Options: nosniff`, and a sandboxing
 * `Content-Security-Policy`, so an uploaded HTML or SVG file never runs as the server's page.
 */
export async function handleSessionFile({ params, access }: RouteContext): Promise<Response> {
  // `:chatId`, which the router does not check before the route runs: the check is here, so that another
  // owner's session answers exactly as a missing file does.
  const sessionId = params.chatId!;
  const fileId = params.fileId!;
  const missing = () => new HttpError(404, `No file "${fileId.slice(0, 128)}" in session "${sessionId.slice(0, 128)}"`);
  let stored;
  try {
    const session = await access.open(sessionId);
    stored = await session.file(fileId);
  } catch (error) {
    if (SessionNotFoundError.isInstance(error)) throw missing();
    throw error;
  }
  if (!stored) throw missing();
  const { ref, bytes } = stored;
  const headers: Record<string, string> = {
    "content-type": ref.mediaType.startsWith("text/") && !/;\s*charset=/i.test(ref.mediaType) ? `${ref.mediaType}; charset=utf-8` : ref.mediaType,
    "content-length": String(bytes.byteLength),
    "content-disposition": contentDisposition(INLINE_TYPES.has(ref.mediaType) ? "inline" : "attachment", ref.filename),
    "x-content-type-options": "nosniff",
    // A PDF viewer does not run under `sandbox`; every other type does, and no script runs anywhere.
    "content-security-policy": ref.mediaType === "application/pdf" ? "default-src 'none'; script-src 'none'" : "default-src 'none'; sandbox",
    // Content-addressed (the id is the bytes' hash), but only the owner may read it: kept by the browser only.
    "cache-control": "private, max-age=3600",
    etag: `"${ref.sha256}"`,
  };
  return new Response(bytes as Uint8Array<ArrayBuffer>, { status: 200, headers });
}

/** `inline; filename="cat.png"; filename*=UTF-8''cat.png`: an ASCII fallback and the name as written. */
function contentDisposition(kind: "inline" | "attachment", filename: string | undefined): string {
  if (filename === undefined || filename === "") return kind;
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, "_");
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`;
}
