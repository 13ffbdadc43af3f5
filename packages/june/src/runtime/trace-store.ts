import type { TraceError, TraceNode } from "./types.js";

/** Every field of a node but `children`, which the store owns. Mutable inside the store only. */
type NodeFields = Record<string, unknown> & { id: string; kind: TraceNode["kind"] };

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** A node to add: its kind-specific fields, without `id` and `children`. */
export type NewNode = DistributiveOmit<TraceNode, "id" | "children">;

/** A change to a node's fields (never `id`, `kind` or `children`). */
export type NodePatch = Partial<Record<string, unknown>>;

interface Entry {
  fields: NodeFields;
  childIds: string[];
  parentId: string | undefined;
}

/**
 * The run's trace: a mutable working copy plus the last committed immutable snapshot. Changes mark their node
 * and its ancestors dirty and schedule one commit on a macrotask, so changes that arrive together (a burst of
 * text deltas) cost one snapshot. A commit rebuilds only the dirty path and reuses every untouched subtree
 * (structural sharing); snapshots are deeply frozen nodes with stable ids.
 */
export class TraceStore {
  private readonly entries = new Map<string, Entry>();
  private readonly cache = new Map<string, TraceNode>();
  private readonly dirty = new Set<string>();
  private counter = 0;
  private timer: ReturnType<typeof setImmediate> | undefined;
  private changed = false;
  private closed = false;
  /** How many commits were delivered. */
  commits = 0;

  constructor(
    readonly rootId: string,
    root: NewNode,
    private readonly onUpdate: ((tree: TraceNode) => void) | undefined,
  ) {
    this.entries.set(rootId, { fields: fieldsOf(root, rootId), childIds: [], parentId: undefined });
    this.markDirty(rootId);
  }

  /** Adds a node as the last child of `parentId` and returns its id (`<kind>-<n>`, stable for the run). */
  add(parentId: string, node: NewNode): string {
    const parent = this.entry(parentId);
    const id = `${node.kind}-${++this.counter}`;
    this.entries.set(id, { fields: fieldsOf(node, id), childIds: [], parentId });
    parent.childIds.push(id);
    this.markDirty(id);
    return id;
  }

  /** Merges `patch` into a node's fields (in place: the working copy is never handed out, a commit copies it). */
  update(id: string, patch: NodePatch): void {
    const { fields } = this.entry(id);
    const { id: nodeId, kind } = fields;
    Object.assign(fields, patch);
    fields.id = nodeId;
    fields.kind = kind;
    this.markDirty(id);
  }

  /** Appends to a node's `partialText` without copying the node until the next commit. */
  appendText(id: string, delta: string): void {
    const entry = this.entry(id);
    entry.fields.partialText = String(entry.fields.partialText ?? "") + delta;
    this.markDirty(id);
  }

  /**
   * Sets a node's `partialText` to the text so far, for a writer that keeps that text itself: the node then
   * holds the writer's own string, not a second copy built delta by delta.
   */
  setText(id: string, text: string): void {
    this.entry(id).fields.partialText = text;
    this.markDirty(id);
  }

  /** Reads one field of a node's working copy. */
  field(id: string, name: string): unknown {
    return (this.entry(id).fields as Record<string, unknown>)[name];
  }

  /** Ends every node below (and including) `id` that is still `pending` or `running`. */
  closeOpen(id: string, status: "canceled" | "error", error?: TraceError, at = Date.now()): void {
    const entry = this.entry(id);
    for (const childId of entry.childIds) this.closeOpen(childId, status, error, at);
    const current = entry.fields.status;
    if (current === "pending" || current === "running") {
      this.update(id, { status, endedAt: at, ...(error && status === "error" ? { error } : {}) });
    }
  }

  /** The current state as a frozen tree (rebuilding only what changed). Does not notify. */
  snapshot(): TraceNode {
    const tree = this.build(this.rootId);
    this.dirty.clear();
    return tree;
  }

  /** Schedules a commit even when nothing changed (observers re-read state that lives beside the tree). */
  touch(): void {
    this.changed = true;
    this.schedule();
  }

  /** Commits now when anything changed (or a commit was forced): builds the snapshot and calls `onUpdate`. */
  flush(): void {
    if (this.timer !== undefined) {
      clearImmediate(this.timer);
      this.timer = undefined;
    }
    if (!this.changed) return;
    this.changed = false;
    const tree = this.snapshot();
    this.commits++;
    try {
      this.onUpdate?.(tree);
    } catch {
      // An observer's failure must not break the run it observes.
    }
  }

  /** Final commit; later changes are ignored by observers. */
  close(): TraceNode {
    this.flush();
    this.closed = true;
    return this.snapshot();
  }

  private schedule(): void {
    if (this.timer !== undefined || this.closed) return;
    // A macrotask, not a microtask: a stream delivers a burst of deltas across microtasks. setImmediate, not
    // setTimeout(0): it runs right after the current I/O, where a timer waits at least 1 ms (the first delta of
    // a streamed reply reached a chat's consumer 1.5 to 2 ms later than with a model chat; see bench/README.md).
    this.timer = setImmediate(() => {
      this.timer = undefined;
      this.flush();
    });
  }

  private markDirty(id: string): void {
    this.changed = true;
    // The dirty set is closed under "parent of": a dirty node's ancestors are dirty already (a delta after the
    // first of a burst stops at once).
    let current: string | undefined = id;
    while (current !== undefined && !this.dirty.has(current)) {
      this.dirty.add(current);
      current = this.entries.get(current)?.parentId;
    }
    if (!this.closed) this.schedule();
  }

  private entry(id: string): Entry {
    const entry = this.entries.get(id);
    // Internal invariant: ids come from add(); a miss is a bug in June, not something a caller can cause.
    if (!entry) throw new Error(`june: no trace node ${id}`);
    return entry;
  }

  private build(id: string): TraceNode {
    const cached = this.cache.get(id);
    if (cached && !this.dirty.has(id)) return cached;
    const entry = this.entry(id);
    const children = Object.freeze(entry.childIds.map((childId) => this.build(childId)));
    freezeFields(entry.fields);
    // Object.assign and a property added after, not `{ ...fields, children }`: V8 builds an object literal
    // that spreads a larger object and adds to it on a slow path (about 1 µs a node here, 7× this).
    const node = Object.assign({}, entry.fields) as Record<string, unknown>;
    node.children = children;
    Object.freeze(node);
    this.cache.set(id, node as unknown as TraceNode);
    return node as unknown as TraceNode;
  }
}

/** A node's working copy: its fields and its id (see `build` for why not a spread). */
function fieldsOf(node: NewNode, id: string): NodeFields {
  const fields = Object.assign({}, node) as unknown as NodeFields;
  fields.id = id;
  return fields;
}

/** The small structural objects a node holds, frozen in every snapshot; other values stay as given. */
const FROZEN_FIELDS = ["model", "usage", "approval", "error"] as const;

/**
 * Replaces each structural object of a working copy (model, usage, approval, error) by a frozen copy, once:
 * the next commit finds it frozen and shares it (the working copy's fields are only ever replaced, never
 * changed in place, so a frozen value is as current as the one it copied).
 */
function freezeFields(fields: NodeFields): void {
  for (const key of FROZEN_FIELDS) {
    const value = fields[key];
    if (value !== undefined && value !== null && typeof value === "object" && !Object.isFrozen(value)) fields[key] = Object.freeze({ ...value });
  }
}
