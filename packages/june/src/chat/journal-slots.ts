import type { EntryLine } from "../stores/journal-open.js";
import { endEntryOf, endSaysAll, startEntryOf, startSaysAll } from "../stores/turn-records.js";
import type { JournalEntry, TurnStartEntry } from "../stores/types.js";
import type { JournalRecords } from "./journal-records.js";

/**
 * One place in a session's journal (`SessionJournal`'s slots, one per entry, slot `i` for seq `i + 1`): an
 * entry as read, a line not yet parsed past its head (`EntryLine`), or what stands for an entry its record
 * holds whole: a turn-start by its record's index in the records (`-1 - index` when the entry named no parent,
 * the record's being the branch it continued), a turn's only turn-end by the turn's id.
 */
export type Slot = JournalEntry | EntryLine | number | string;

/** The entry of slot `i`: itself, or rebuilt from the record that stands for it (equal, key for key). */
export function entryAt(records: JournalRecords, i: number, slot: Slot): JournalEntry {
  if (typeof slot === "number") return slot >= 0 ? startEntryOf(records.list[slot]!, i + 1, true) : startEntryOf(records.list[-1 - slot]!, i + 1, false);
  if (typeof slot === "string") return endEntryOf(records.find(slot)!, i + 1);
  return slot as JournalEntry;
}

/**
 * What slot stands for a turn's first turn-start (its record `records.list[index]`), or undefined when the
 * record does not say all of it.
 */
export function startSlot(records: JournalRecords, entry: TurnStartEntry, index: number): number | undefined {
  const named = startSaysAll(entry, records.list[index]!);
  if (named === undefined) return undefined;
  return named ? index : -1 - index;
}

/** Puts a turn's turn-ends back in the slots where its record stands for them (before the record changes). */
export function spellEnds(slots: Slot[], records: JournalRecords, turnId: string): void {
  for (let i = slots.length - 1; i >= 0; i--) if (slots[i] === turnId) slots[i] = entryAt(records, i, turnId);
}

/**
 * Once every record is whole (every line parsed): the entries a record says all of give way to it, while the
 * slots' seqs have no gap.
 */
export function compactSlots(slots: Slot[], records: JournalRecords): void {
  const list = records.list;
  let next = 0;
  for (let i = 0; i < slots.length; i++) {
    const slot = slots[i] as JournalEntry;
    if (typeof slot !== "object") continue;
    if (slot.seq !== i + 1) break;
    if (slot.type === "turn-start") {
      // The records are in the order of their first turn-starts.
      if (next === list.length || list[next]!.id !== slot.turnId) continue;
      const stand = startSlot(records, slot, next++);
      if (stand !== undefined) slots[i] = stand;
    } else if (slot.type === "turn-end") {
      const record = records.find(slot.turnId);
      if (record && endSaysAll(slot, record)) slots[i] = record.id;
    }
  }
}
