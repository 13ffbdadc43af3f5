/**
 * `june/store-kit`: what a store's author needs, beside the `ChatStore` interface itself (in `june/chat`):
 * the journal's entries, the options of a store's methods, the memory area's methods and records, turn leases, stored checkpoints, the error a
 * conflicting append throws, a session id's check, the conformance cases every store passes, and a reader of
 * a turn's context provenance. A chat's user never needs this entry. docs/api.md lists every entry.
 *
 * @example
 * import type { ChatStore } from "june/chat";
 * import { storeConformanceCases } from "june/store-kit";
 *
 * for (const { name, run } of storeConformanceCases(() => myStore())) it(name, run);
 */
export type {
  AcquireAndAppendOptions,
  AppendOptions,
  ApprovalEntry,
  CheckoutEntry,
  ContextProvenance,
  CreateSessionOptions,
  FeedbackEntry,
  JournalEntry,
  JournalEntryType,
  LeasedAppend,
  ListSessionsOptions,
  NewFile,
  NewJournalEntry,
  RenameEntry,
  ResponderProvenance,
  SessionEntry,
  SteerEntry,
  StoredCheckpoint,
  StoredFile,
  SummaryEntry,
  TurnEndEntry,
  TurnLease,
  TurnStartEntry,
  TurnSuspendEntry,
} from "./stores/types.js";
export type { MemoryKey, MemoryProvenance, MemoryStoreMethods, MemoryUpdate, MemoryVersion, RecallEntry, RecallMatch, RecallQuery } from "./stores/memory-types.js";
export { assertSessionId, ConflictError } from "./stores/errors.js";
export { storeConformanceCases } from "./testing/store-conformance.js";
export type { StoreConformanceCase } from "./testing/store-conformance.js";
export { contextTurnIds } from "./chat/context/resolve-context.js";
