import type { MemoryProvenance } from "../../stores/memory-types.js";
import type { ResolvedContext } from "../context/resolve-context.js";
import type { SessionJournal } from "../session-journal.js";
import type { ChatMemory } from "./chat-memory.js";
import type { TurnMemory } from "./memory-options.js";

/** A turn's context with what the chat's memory added: its provenance says so, the responder gets `memory`. */
export interface MemoryContext extends ResolvedContext {
  memory?: TurnMemory;
}

/** The context, and the memory loaded beside it, joined (one wait for both). */
export async function withMemory(built: Promise<ResolvedContext>, loading: Promise<{ memory: TurnMemory; provenance: MemoryProvenance | undefined }>): Promise<MemoryContext> {
  const [context, { memory, provenance }] = await Promise.all([built, loading]);
  return { ...context, provenance: provenance ? { ...context.provenance, memory: provenance } : context.provenance, memory };
}

/** Queues a turn that completed for the recall index (nothing for one that failed, was canceled or blocked). */
export function indexFinishedTurn(memory: ChatMemory, journal: SessionJournal, turnId: string): void {
  const record = journal.record(turnId);
  if (record?.status !== "completed" || record.endedAt === undefined) return;
  memory.indexTurn({ sessionId: journal.sessionId, turnId, input: record.input, text: record.text ?? "", at: record.endedAt });
}
