import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ChatStore, NewJournalEntry } from "../types.js";

/** Test helpers for the file store tests: a temp root, fresh directories, sessions with turns. */
export function tempRoot(prefix: string): { dir: () => string; cleanup: () => void } {
  const root = mkdtempSync(join(tmpdir(), prefix));
  let count = 0;
  return { dir: () => join(root, `d-${count++}`), cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

export const turn = (turnId: string, input = `input of ${turnId}`): NewJournalEntry[] => [
  { type: "turn-start", turnId, input, context: { builder: "full", turnIds: [] } },
  { type: "turn-end", turnId, status: "completed", text: `reply to ${turnId}` },
];

/** Creates session `id` with `turns` completed turns; returns the last seq. */
export async function sessionWithTurns(store: ChatStore, id: string, turns: number): Promise<number> {
  await store.createSession({ id });
  let seq = 1;
  for (let i = 0; i < turns; i++) seq = (await store.append(id, turn(`t${i}`), { expectedSeq: seq })).at(-1)!.seq;
  return seq;
}
