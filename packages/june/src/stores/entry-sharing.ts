import type { JournalEntry, TurnEndEntry } from "./types.js";

/** `context.turnIds` when empty (what `fullContext` journals): one frozen list for every entry. */
const NO_TURN_IDS: string[] = Object.freeze([]) as unknown as string[];

/** What the entries before the next one left to share: the last turn started, the last turn-end's metadata. */
export interface SharedRepeats {
  turnId?: string | undefined;
  /** The last turn-start's `context.builder`. */
  builder?: string | undefined;
  metadata?: NonNullable<TurnEndEntry["metadata"]> | undefined;
}

/**
 * Makes a parsed, not yet frozen entry hold what it repeats of the entries before it by reference instead of
 * a copy of its own: the id of the last turn started (a turn-end's `turnId`, a turn-start's `parentTurnId`
 * and `context.completedThrough`), an empty `context.turnIds`, the previous turn-start's `context.builder` (or
 * a built-in builder's name, held once for every session), a turn-end's `responder` and `model` when they
 * are the previous turn-end's (compared field by field; the shared objects are frozen). Values stay equal;
 * an idle session holds a few hundred bytes less per turn. Updates `repeats` for the next entry.
 */
export function shareRepeats(entry: JournalEntry, repeats: SharedRepeats): void {
  switch (entry.type) {
    case "turn-start": {
      const last = repeats.turnId;
      const context = entry.context;
      if (!Object.isFrozen(context)) {
        if (context.turnIds.length === 0) context.turnIds = NO_TURN_IDS;
        if (context.builder === repeats.builder) context.builder = repeats.builder!;
        else context.builder = builderName(context.builder);
      }
      repeats.builder = context.builder;
      if (last !== undefined) {
        if (context.completedThrough === last && !Object.isFrozen(context)) context.completedThrough = last;
        if (entry.parentTurnId === last) entry.parentTurnId = last;
      }
      repeats.turnId = entry.turnId;
      return;
    }
    case "turn-end": {
      if (entry.turnId === repeats.turnId) (entry as { turnId: string }).turnId = repeats.turnId;
      const metadata = entry.metadata;
      if (metadata === undefined || Object.isFrozen(metadata)) return;
      const last = repeats.metadata;
      if (last !== undefined) {
        if (sameFlat(metadata.responder, last.responder)) metadata.responder = last.responder;
        if (metadata.model !== undefined && sameFlat(metadata.model, last.model)) metadata.model = last.model;
      }
      Object.freeze(metadata.responder);
      if (metadata.model !== undefined) Object.freeze(metadata.model);
      repeats.metadata = metadata;
      return;
    }
    default:
      return;
  }
}

/** The built-in context builders' names (and a custom builder's), held once for every session. */
const BUILDER_NAMES = ["fullContext", "recentTurns", "summarizedContext", "custom"];

/** `name`, as the one string every journal holds when it is a built-in builder's. */
function builderName(name: string): string {
  const i = BUILDER_NAMES.indexOf(name);
  return i === -1 ? name : BUILDER_NAMES[i]!;
}

/** True when two flat records of strings (a responder's or a model's description) have the same fields. */
function sameFlat(a: object | undefined, b: object | undefined): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const key of keys) {
    const value = (a as Record<string, unknown>)[key];
    if ((typeof value === "object" && value !== null) || value !== (b as Record<string, unknown>)[key]) return false;
  }
  return true;
}

/** Freezes `value` and every object in it (what is frozen already is taken as frozen through). */
export function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key in value) deepFreeze(value[key]);
  }
  return value;
}
