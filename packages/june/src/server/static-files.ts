import { readFile, stat } from "node:fs/promises";
import { extname, join, resolve, sep } from "node:path";

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".ico": "image/x-icon",
  ".woff": "font/woff",
  ".woff2": "font/woff2",
  ".ttf": "font/ttf",
  ".txt": "text/plain; charset=utf-8",
  ".wasm": "application/wasm",
};

/** Headers every Studio page and asset carries. */
const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "x-content-type-options": "nosniff",
  // The page URL holds the token: never send it on to another site.
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
  "content-security-policy": "frame-ancestors 'none'",
};

export interface StaticFilesOptions {
  /** The directory served. */
  root: string;
  /** Headers added to every response (such as a cookie). */
  headers?: Record<string, string>;
}

/**
 * Answers a GET or HEAD for a file under `root`: the file when there is one, else `index.html` (so a
 * single-page app's own routes load), except for a missing `/assets/...` file, which is a 404. Paths never
 * leave `root`. Without an `index.html` the answer is a 503 saying the app is not built.
 */
export async function serveStaticFile(pathname: string, options: StaticFilesOptions): Promise<Response> {
  const root = resolve(options.root);
  const headers = { ...SECURITY_HEADERS, ...options.headers };
  const file = await findFile(root, pathname);
  if (file) return fileResponse(file, headers);
  if (pathname.startsWith("/assets/")) return text(404, "Not found", headers);
  const index = join(root, "index.html");
  if (await isFile(index)) return fileResponse(index, headers);
  return text(
    503,
    `June Studio is not built: no index.html in ${root}. In June's repository, \`npm ci && npm run build\` builds it (\`npm ci -w june\` installs June alone, without Studio).`,
    headers,
  );
}

async function findFile(root: string, pathname: string): Promise<string | undefined> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return undefined;
  }
  if (decoded.includes("\0")) return undefined;
  const relative = decoded.replace(/^\/+/, "");
  if (relative === "") return undefined;
  const path = resolve(root, relative);
  if (path !== root && !path.startsWith(root + sep)) return undefined;
  return (await isFile(path)) ? path : undefined;
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

async function fileResponse(path: string, headers: Record<string, string>): Promise<Response> {
  const body = await readFile(path);
  const type = CONTENT_TYPES[extname(path).toLowerCase()] ?? "application/octet-stream";
  // The built assets have content hashes in their names; the page itself must always be fresh.
  const cache = path.endsWith(".html") ? "no-store" : "private, max-age=3600";
  return new Response(new Uint8Array(body), {
    status: 200,
    headers: { ...headers, "content-type": type, "content-length": String(body.byteLength), "cache-control": cache },
  });
}

function text(status: number, message: string, headers: Record<string, string>): Response {
  return new Response(message, { status, headers: { ...headers, "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" } });
}
