import type { ChatTraceRow } from "../trace/project-chat-trace.js";

type WithoutChildren<T> = T extends unknown ? Omit<T, "children"> : never;

/** A row that is new or changed since the last snapshot: its own fields (never its children), and where it sits. */
export type TraceRowChange = WithoutChildren<ChatTraceRow> & {
  /** The id of the row it sits under, `null` for a top row. */
  parentId: string | null;
  /** Its place among its parent's children (or the top rows), from 0. */
  position: number;
};

/** How one snapshot of trace rows differs from the one before (what `june ... --json` prints per `run-update`). */
export interface TraceRowChanges {
  /** Rows that are new, or whose fields, parent or position changed, parents before their children. */
  rows: TraceRowChange[];
  /** Ids of rows that are gone (an approval row once its request was decided), children included. */
  removed: string[];
}

interface Placed {
  row: ChatTraceRow;
  parentId: string | null;
  position: number;
}

/**
 * The changes from `previous` to `next` (both `projectChatTrace` snapshots, whose row ids are unique and
 * stable): a long turn's trace grows by a row or two per commit, so a reader that keeps the rows gets a few
 * lines' worth per update, not the whole tree again. `applyTraceRowChanges(previous, changes)` gives `next`.
 */
export function traceRowChanges(previous: readonly ChatTraceRow[], next: readonly ChatTraceRow[]): TraceRowChanges {
  const before = new Map<string, { fields: string; parentId: string | null; position: number }>();
  for (const { row, parentId, position } of placed(previous)) before.set(row.id, { fields: fieldsJson(row), parentId, position });
  const rows: TraceRowChange[] = [];
  const seen = new Set<string>();
  for (const { row, parentId, position } of placed(next)) {
    seen.add(row.id);
    const old = before.get(row.id);
    if (old && old.parentId === parentId && old.position === position && old.fields === fieldsJson(row)) continue;
    rows.push({ ...fieldsOf(row), parentId, position } as TraceRowChange);
  }
  const removed = [...before.keys()].filter((id) => !seen.has(id));
  return { rows, removed };
}

/** `rows` with `changes` applied: the snapshot `traceRowChanges` was given as `next`. */
export function applyTraceRowChanges(rows: readonly ChatTraceRow[], changes: TraceRowChanges): ChatTraceRow[] {
  const all = new Map<string, { fields: Record<string, unknown>; parentId: string | null; position: number }>();
  for (const { row, parentId, position } of placed(rows)) all.set(row.id, { fields: fieldsOf(row), parentId, position });
  for (const id of changes.removed) all.delete(id);
  for (const change of changes.rows) {
    const { parentId, position, ...fields } = change;
    all.set(change.id, { fields, parentId, position });
  }
  const byParent = new Map<string | null, { fields: Record<string, unknown>; position: number }[]>();
  for (const entry of all.values()) {
    const siblings = byParent.get(entry.parentId) ?? [];
    siblings.push(entry);
    byParent.set(entry.parentId, siblings);
  }
  const build = (parentId: string | null): ChatTraceRow[] =>
    (byParent.get(parentId) ?? [])
      .sort((a, b) => a.position - b.position)
      .map(({ fields }) => ({ ...fields, children: build(fields.id as string) }) as ChatTraceRow);
  return build(null);
}

function* placed(rows: readonly ChatTraceRow[], parentId: string | null = null): Generator<Placed> {
  for (let position = 0; position < rows.length; position++) {
    const row = rows[position];
    yield { row, parentId, position };
    yield* placed(row.children, row.id);
  }
}

function fieldsOf(row: ChatTraceRow): Record<string, unknown> {
  const { children: _children, ...fields } = row;
  return fields;
}

function fieldsJson(row: ChatTraceRow): string {
  return JSON.stringify(fieldsOf(row));
}
