import * as ai from "ai";
import type { UIMessageChunk } from "ai";

/** A decision taken on an approval request, as a replayed UI message stream shows it. */
export interface UiDecision {
  approved: boolean;
  reason?: string;
}

/**
 * The one place `/ui-chat` depends on the AI SDK's major (to move into June's version adapter): the AI SDK 7
 * UI message stream has a `tool-approval-response` chunk (the tool part reads `approval-responded`, with
 * `approval.approved` and its reason); the AI SDK 6 one has none, and its `useChat` refuses a chunk it does
 * not know. Told apart by what the installed `ai` exports: `toUIMessageStream` came with the 7 line.
 */
export const APPROVAL_RESPONSE_CHUNKS = typeof (ai as unknown as Record<string, unknown>).toUIMessageStream === "function";

/**
 * The chunks that show a tool call whose approval was decided before the client saw it (a stream replayed
 * from the start after a reload), after its `tool-input-available`: on the 7 line the request and its
 * answer; on the 6 line nothing (the call reads `input-available` until its outcome), so no page asks for a
 * decision that was taken already.
 */
export function decidedApprovalChunks(approvalId: string, toolCallId: string, decision: UiDecision): UIMessageChunk[] {
  if (!APPROVAL_RESPONSE_CHUNKS) return [];
  const response = { type: "tool-approval-response", approvalId, approved: decision.approved, ...(decision.reason !== undefined && { reason: decision.reason }) };
  return [{ type: "tool-approval-request", approvalId, toolCallId }, response as unknown as UIMessageChunk];
}
