import type { ModelMessage } from "ai";
import { markHistoryOnly } from "./history-only.js";
import type { ContextBuilder, ContextOptions, ContextResult, TurnRecord } from "../types.js";
import { isCompleted, sameSteers, snapshotSteers, turnMessages, type SteersSnapshot } from "./turn-messages.js";

/** A record that may still change (not frozen), as the builder last saw it: what its messages depend on. */
class SeenCopy {
  readonly status: TurnRecord["status"];
  readonly input: string;
  readonly text: string | undefined;
  readonly steers: SteersSnapshot;
  constructor(readonly record: TurnRecord) {
    this.status = record.status;
    this.input = record.input;
    this.text = record.text;
    this.steers = snapshotSteers(record.steers);
  }
}

/**
 * One record as the builder last saw it: the record itself when it is frozen (it cannot have changed since: a
 * store's records are, and an open session keeps one entry per turn here), else a copy of what matters.
 */
type Seen = TurnRecord | SeenCopy;

/** A session's context as the last call built it, kept so that the next call only adds the new turns. */
interface Memo {
  seen: Seen[];
  /** `messages.length` before each seen record's messages. */
  messagesAt: number[];
  messages: ModelMessage[];
  turnIds: string[];
}

/**
 * The default context: every completed turn, oldest first: its input, its steer inputs and its reply.
 * Failed, canceled and interrupted turns are left out.
 *
 * Sending every earlier turn again is what this builder does, but it does not rebuild them on every turn:
 * it keeps, per open session (by `ContextOptions.scope`, so it goes when the session object does), the
 * messages it built last time and each record as it was then; a call checks that the history still starts with those same records, unchanged (status,
 * input, text, steers), and adds only the turns after them. Any difference rebuilds from there. The result
 * is a fresh array each time; its messages are frozen (they are reused).
 *
 * @example
 * createChat({ responder, context: fullContext() });
 */
export function fullContext(): ContextBuilder {
  // Keyed by the open session, never by a record: a store may keep its records for good (memoryStore does),
  // and a memo keyed by one would keep every session this chat ever served.
  const memos = new WeakMap<object, Memo>();
  return markHistoryOnly(function fullContextBuilder(history: TurnRecord[], options?: ContextOptions): ContextResult {
    const scope = options?.scope;
    let memo = scope === undefined ? undefined : memos.get(scope);
    if (memo === undefined) {
      memo = { seen: [], messagesAt: [], messages: [], turnIds: [] };
      if (scope !== undefined) memos.set(scope, memo);
    }
    const same = unchangedPrefix(memo.seen, history);
    if (same < memo.seen.length) {
      let turnIds = 0;
      for (let i = 0; i < same; i++) if (memo.seen[i]!.status === "completed") turnIds += 1;
      memo.messages.length = memo.messagesAt[same]!;
      memo.turnIds.length = turnIds;
      memo.seen.length = same;
      memo.messagesAt.length = same;
    }
    for (let i = same; i < history.length; i++) add(memo, history[i]!);
    return { name: "fullContext", messages: memo.messages.slice(), turnIds: memo.turnIds.slice() };
  });
}

/** How many records at the start of `history` are those of `seen`, as they were. */
function unchangedPrefix(seen: readonly Seen[], history: readonly TurnRecord[]): number {
  const n = Math.min(seen.length, history.length);
  for (let i = 0; i < n; i++) {
    const s = seen[i]!;
    const record = history[i]!;
    if (!(s instanceof SeenCopy)) {
      // A frozen record: the very same one is unchanged.
      if (s !== record) return i;
      continue;
    }
    if (s.record !== record || s.status !== record.status) return i;
    // What a left-out turn says does not matter.
    if (s.status !== "completed") continue;
    if (s.input !== record.input || s.text !== record.text || !sameSteers(s.steers, record.steers)) return i;
  }
  return n;
}

function add(memo: Memo, record: TurnRecord): void {
  memo.seen.push(Object.isFrozen(record) && Object.isFrozen(record.steers) ? record : new SeenCopy(record));
  memo.messagesAt.push(memo.messages.length);
  if (!isCompleted(record)) return;
  // Frozen: they go to every later turn, so no builder or responder may change them.
  for (const message of turnMessages(record)) memo.messages.push(Object.freeze(message));
  memo.turnIds.push(record.id);
}
