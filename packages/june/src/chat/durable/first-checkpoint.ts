import { ZERO_USAGE } from "../../runtime/usage.js";
import type { RunCheckpoint } from "../../runtime/types.js";
import type { ChatStore, ResponderProvenance } from "../../stores/types.js";
import { TurnNotFoundError, TurnNotResumableError } from "../errors.js";
import type { SessionJournal } from "../session-journal.js";
import { isUnfinished } from "../unfinished.js";
import { encodeCheckpoint, type DurableSettings } from "./checkpoint-codec.js";

/** A run's checkpoint before its first step: nothing finished, nothing waits (a resume from it runs every step). */
const FIRST_RUN: RunCheckpoint = { version: 1, completed: [], steps: {}, failed: {}, waiting: {}, usage: ZERO_USAGE };

/**
 * Stores, under the session's lease, the checkpoint a durable turn would have had at its start, for a turn that
 * started and never ended and has none (its process died before its first checkpoint): `session.resume` then
 * runs it again from its first step, under its id. Safe because no approved tool ran (an approved call is marked
 * in a checkpoint before it executes); a tool that needs no approval may run again, as after any crash mid-step.
 * `TurnNotResumableError` for a turn that ended, has a checkpoint already, or whose chat is not durable.
 */
export async function storeFirstCheckpoint(
  host: { store: ChatStore; provenance: ResponderProvenance; durable?: DurableSettings },
  journal: SessionJournal,
  turnId: string,
): Promise<void> {
  const { store, durable } = host;
  const sessionId = journal.sessionId;
  if (!durable || typeof store.getCheckpoint !== "function" || typeof store.putCheckpoint !== "function") {
    throw new TurnNotResumableError(sessionId, turnId, "the chat's responder is not durable (agentResponder({ durable: true }))");
  }
  const lease = await store.acquireTurn(sessionId);
  try {
    await journal.catchUp();
    const record = journal.record(turnId);
    if (!record) throw new TurnNotFoundError(sessionId, turnId);
    if (!isUnfinished(record.status)) throw new TurnNotResumableError(sessionId, turnId, `it is ${record.status}`);
    if (await store.getCheckpoint(sessionId, turnId)) throw new TurnNotResumableError(sessionId, turnId, "it has a checkpoint: resume it");
    const envelope = { version: 1 as const, turnId, responder: host.provenance, requests: [], state: FIRST_RUN };
    await store.putCheckpoint(sessionId, turnId, encodeCheckpoint(envelope, sessionId, durable.key));
  } finally {
    await store.releaseTurn(lease).catch(() => {});
  }
}
