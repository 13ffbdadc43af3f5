import { dataset } from "../learning/dataset.js";
import { toJSONL } from "../learning/jsonl.js";
import type { HandlerContext } from "./handler-context.js";
import { HttpError } from "./http-error.js";
import type { RouteContext } from "./router.js";

/** The `filter` values `GET /sessions/:id/cases` takes: every completed turn, or those rated up or down. */
export type CasesFilter = "all" | "up" | "down";

const FILTERS: readonly CasesFilter[] = ["all", "up", "down"];

/**
 * `GET /sessions/:id/cases?filter=all|up|down`: the session's completed turns as eval cases, one JSON line
 * each (`dataset` + `toJSONL`, so credentials are redacted), served as an `application/x-ndjson` download
 * named `<session-id>-cases.jsonl`. `filter` defaults to `all`; `up` and `down` keep the turns whose latest
 * feedback scored above or below 0.5. An unknown session is a 404, a bad `filter` a 400.
 */
export async function handleSessionCases({ url, params }: RouteContext, context: HandlerContext): Promise<Response> {
  const filter = casesFilter(url);
  // `dataset` opens the session as it iterates: an unknown or invalid id throws from here (404 / 400).
  const text = await toJSONL(dataset(context.chat, { filter, sessions: [params.id] }));
  return new Response(text, {
    status: 200,
    headers: {
      "content-type": "application/x-ndjson; charset=utf-8",
      "content-disposition": attachment(`${params.id}-cases.jsonl`),
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });
}

function casesFilter(url: URL): CasesFilter {
  const values = url.searchParams.getAll("filter");
  if (values.length === 0) return "all";
  const value = values[0];
  if (values.length > 1) throw new HttpError(400, `"filter" must be given once, got ${values.length} values`);
  if (!(FILTERS as readonly string[]).includes(value)) {
    throw new HttpError(400, `"filter" must be "all", "up" or "down", got ${JSON.stringify(value.slice(0, 32))}`);
  }
  return value as CasesFilter;
}

/**
 * A `content-disposition` for a download. Chat session ids are already safe (letters, digits, `-`, `_`);
 * a custom chat's may not be, so anything else becomes `_` in the plain `filename` and the exact name goes
 * in `filename*` (RFC 6266).
 */
function attachment(filename: string): string {
  const safe = filename.replace(/[^A-Za-z0-9._-]/g, "_");
  if (safe === filename) return `attachment; filename="${filename}"`;
  return `attachment; filename="${safe}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}
