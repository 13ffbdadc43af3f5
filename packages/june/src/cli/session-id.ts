import { InvalidSessionIdError } from "../stores/errors.js";
import type { ChatStore, SessionInfo } from "../stores/types.js";

/** How many sessions a prefix is matched against per page of `listSessions`. */
const PAGE = 1000;

/**
 * The session a command-line id names: the whole id, or a prefix that exactly one session of the store has
 * (`june sessions show 3f2a`, `/open 3f2a`, `--session 3f2a`, `june resume 3f2a`). Answers the session, or
 * why none: `"missing"` when nothing starts with it, `{ ambiguous }` with how many do.
 */
export async function findSessionById(
  store: ChatStore,
  text: string,
): Promise<SessionInfo | "missing" | { ambiguous: number }> {
  let exact: SessionInfo | undefined;
  try {
    exact = await store.getSession(text);
  } catch (error) {
    // A prefix is not always a well-formed id ("3f2a…" copied with its ellipsis is not); it is still a prefix.
    if (!InvalidSessionIdError.isInstance(error)) throw error;
  }
  if (exact) return exact;
  const prefix = text.endsWith("…") ? text.slice(0, -1) : text;
  if (prefix.length === 0) return "missing";
  let found: SessionInfo | undefined;
  let count = 0;
  let before: string | undefined;
  for (;;) {
    const page = await store.listSessions({ limit: PAGE, ...(before === undefined ? {} : { before }) });
    for (const info of page) {
      if (!info.id.startsWith(prefix)) continue;
      count++;
      found ??= info;
    }
    if (page.length < PAGE) break;
    const last = page[page.length - 1]!.updatedAt;
    if (before === last) break; // a page of equal times: no way to page past it
    before = last;
  }
  if (count === 1) return found!;
  return count === 0 ? "missing" : { ambiguous: count };
}

/** The words for a prefix that named no one session, for a usage error. */
export function sessionIdProblem(text: string, found: "missing" | { ambiguous: number }, where: string): string {
  return found === "missing"
    ? `No session "${text}" in ${where}`
    : `"${text}" is the start of ${found.ambiguous} sessions' ids in ${where}: type more of the id`;
}
