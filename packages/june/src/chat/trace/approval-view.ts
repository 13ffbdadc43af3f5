import type { ApprovalRequest } from "../../runtime/types.js";
import { excerpt } from "../../redaction/excerpt.js";
import { redact, type TextRedactOptions } from "../../redaction/redact.js";

/** A redacted tool input larger than this, as JSON, goes out as its bounded excerpt instead. */
export const MAX_INPUT_VALUE_JSON_CHARS = 16_000;

/**
 * A pending approval as a person sees it, on every surface: the turn stream's `approval-request`, the HTTP
 * API's `pendingApprovals`, `june run --json`, the CLI and Studio. Built by `approvalView` only.
 */
export interface ApprovalView {
  id: string;
  /** The turn that waits on it: set where requests of several turns are listed (`pendingApprovals`). */
  turnId?: string;
  /** The step that asked (absent on a request read from a checkpoint written before steps were kept). */
  stepId?: string;
  toolName: string;
  toolCallId: string;
  /** A bounded (300 characters), redacted excerpt of the input the tool would run with. */
  input: string;
  /**
   * The input itself, redacted, as JSON, for a UI that shows its fields or edits it (the UI message stream's
   * `tool-input-available`, Studio's Edit); the excerpt (`input`) when its JSON is over 16,000 characters. An
   * edit sent back with a `"[redacted]"` left as shown gets the model's value there, never the placeholder.
   */
  inputValue: unknown;
  /** An approved call that may have begun when its process stopped: it runs again only on a new approval. */
  retry?: true;
}

/** What a view is built from: a run's request, live or restored from a checkpoint (with its turn, when listed). */
export type ApprovalViewSource = Pick<ApprovalRequest, "id" | "toolName" | "toolCallId" | "input"> & {
  stepId?: string;
  turnId?: string;
  retry?: boolean;
};

/**
 * The one place a pending approval becomes what a person sees. The input is redacted whole (June's patterns,
 * then `redaction`'s) before anything is cut from it: an excerpt cut through a credential would no longer
 * look like one.
 */
export function approvalView(request: ApprovalViewSource, redaction: TextRedactOptions = {}): ApprovalView {
  const safe = redact(request.input, redaction);
  const input = excerpt(safe);
  return {
    id: request.id,
    ...(request.turnId !== undefined ? { turnId: request.turnId } : {}),
    ...(request.stepId !== undefined ? { stepId: request.stepId } : {}),
    toolName: request.toolName,
    toolCallId: request.toolCallId,
    input,
    inputValue: inputValue(safe, input),
    ...(request.retry ? { retry: true as const } : {}),
  };
}

function inputValue(safe: unknown, shown: string): unknown {
  let text: string | undefined;
  try {
    text = JSON.stringify(safe);
  } catch {
    return shown;
  }
  if (text === undefined || text.length > MAX_INPUT_VALUE_JSON_CHARS) return shown;
  return JSON.parse(text) as unknown;
}
