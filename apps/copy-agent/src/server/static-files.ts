import { readFile, stat } from "node:fs/promises";
import { extname, join, normalize, sep } from "node:path";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".json": "application/json; charset=utf-8",
};

/**
 * Serves the built UI (`dist/web`) as a Fetch handler: a file under `dir`, or `index.html` for any other
 * GET, so the app's URLs all open it. Never a path outside `dir`.
 */
export function staticFiles(dir: string): (request: Request) => Promise<Response> {
  const root = normalize(dir);
  return async (request) => {
    if (request.method !== "GET" && request.method !== "HEAD") return new Response("Method not allowed", { status: 405 });
    const pathname = decodeURIComponent(new URL(request.url).pathname);
    const file = normalize(join(root, pathname));
    const inside = file === root || file.startsWith(root.endsWith(sep) ? root : root + sep);
    const target = inside && (await stat(file).catch(() => undefined))?.isFile() ? file : join(root, "index.html");
    try {
      const body = await readFile(target);
      return new Response(request.method === "HEAD" ? null : body, {
        headers: { "content-type": TYPES[extname(target)] ?? "application/octet-stream" },
      });
    } catch {
      return new Response(`The UI is not built: run \`npm run build\` in apps/copy-agent (no ${target})`, { status: 404 });
    }
  };
}
