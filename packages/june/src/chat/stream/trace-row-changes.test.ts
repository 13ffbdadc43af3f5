import { describe, expect, it } from "vitest";
import type { ChatTraceRow } from "../trace/project-chat-trace.js";
import { applyTraceRowChanges, traceRowChanges } from "./trace-row-changes.js";

/** A small seeded generator (mulberry32): the same trees on every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const STATUSES = ["running", "done", "error", "pending"] as const;

/** A random tree of step rows whose ids are unique (as `projectChatTrace`'s are). */
function tree(next: () => number, ids: string[], depth = 0): ChatTraceRow[] {
  const count = depth === 0 ? 1 + Math.floor(next() * 4) : Math.floor(next() * (4 - depth));
  const rows: ChatTraceRow[] = [];
  for (let i = 0; i < count; i++) {
    // Ids drawn from a small pool, so snapshots share (and move, and drop) rows.
    if (ids.length === 0) break;
    const [id] = ids.splice(Math.floor(next() * ids.length), 1) as [string];
    rows.push({ kind: "step", id, stepId: id, title: `t${Math.floor(next() * 3)}`, status: STATUSES[Math.floor(next() * 4)]!, children: tree(next, ids, depth + 1) });
  }
  return rows;
}

describe("traceRowChanges", () => {
  it("lists the new, changed and moved rows, parents first, and the removed ones", () => {
    const before: ChatTraceRow[] = [{ kind: "step", id: "a", stepId: "a", title: "Running a", status: "running", children: [] }];
    const after: ChatTraceRow[] = [
      {
        ...before[0]!,
        children: [{ kind: "tool", id: "t", title: "deploy", status: "running", toolName: "deploy", toolCallId: "c", input: "{}", children: [] }],
      },
    ];
    expect(traceRowChanges(before, after)).toEqual({
      rows: [{ kind: "tool", id: "t", title: "deploy", status: "running", toolName: "deploy", toolCallId: "c", input: "{}", parentId: "a", position: 0 }],
      removed: [],
    });
    expect(traceRowChanges(after, after)).toEqual({ rows: [], removed: [] });
    expect(traceRowChanges(after, before)).toEqual({ rows: [], removed: ["t"] });
  });

  it("applied to the previous snapshot gives the next one (2,000 seeded pairs)", () => {
    const next = random(17);
    let previous: ChatTraceRow[] = [];
    for (let i = 0; i < 2_000; i++) {
      const current = tree(next, Array.from({ length: 12 }, (_, n) => `r${n}`));
      const changes = traceRowChanges(previous, current);
      expect(applyTraceRowChanges(previous, changes)).toEqual(current);
      previous = current;
    }
  });
});
