export { memoryStore } from "./memory-store.js";
export { fileStore } from "./file-store.js";
export type { FileStoreOptions } from "./file-store.js";
export {
  CheckpointUnreadableError,
  ConflictError,
  InvalidSessionIdError,
  JournalCorruptError,
  SessionBusyError,
  SessionNotFoundError,
  assertSessionId,
} from "./errors.js";
export type {
  AcquireAndAppendOptions,
  AppendOptions,
  ApprovalEntry,
  ChatStore,
  ContextProvenance,
  CreateSessionOptions,
  FeedbackEntry,
  JournalEntry,
  JournalEntryType,
  LeasedAppend,
  ListSessionsOptions,
  NewJournalEntry,
  ResponderProvenance,
  SessionEntry,
  SessionInfo,
  SteerEntry,
  StoredCheckpoint,
  SummaryEntry,
  CheckoutEntry,
  TurnEndEntry,
  TurnEndStatus,
  TurnLease,
  TurnMetadata,
  TurnStartEntry,
  TurnSuspendEntry,
} from "./types.js";
