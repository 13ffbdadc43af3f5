/**
 * True for a turn that did not end: `suspended` (a durable turn waiting on approvals that no process runs) or
 * `interrupted` (its process stopped while it ran). The one test of "unfinished", for June and Studio alike.
 */
export function isUnfinished(status: string): status is "suspended" | "interrupted" {
  return status === "suspended" || status === "interrupted";
}
