import type { DynamicToolUIPart, UIMessage } from "ai";
import { ASK_USER_TOOL } from "../ask/ask-user.js";
import { redact, redactText } from "../redaction/redact.js";
import type { ApprovalEntry, FileRef, HandoffRecord, JournalEntry, TurnMetadata } from "../stores/types.js";
import type { TurnRecord } from "./types.js";

/** The id of the user message `toUIMessages` makes for a turn's input. */
export function uiUserMessageId(turnId: string): string {
  return `${turnId}-user`;
}

/**
 * A session's turns as the AI SDK's `UIMessage[]`, what `useChat({ id, messages })` takes after a reload:
 * per turn, the user's message (its input as one text part, id `<turnId>-user`) and the assistant's (id the
 * turn's id, its reply as one text part, left out while a turn has no reply yet). Each assistant message
 * carries `metadata: { turnStatus }` (`completed`, `failed`, `canceled`, `interrupted` or `running`), and
 * `checkpointUnreadable` (why) on an unfinished durable turn whose checkpoint cannot be read.
 * Steers are not shown: a turn is one exchange. Replies are redacted as the HTTP handler redacts them.
 * The sources a reply cited follow its text (`source-url`, `source-document`), and its journaled reasoning
 * (`createChat({ journal: { reasoning: true } })`) comes first, one `reasoning` part, as `useChat` built them live.
 *
 * With `journal`, an ended turn's assistant message also has, before its text, a `dynamic-tool` part per
 * request a person decided in it (the `approval` entries with no `decidedBy`, in journal order): the tool's
 * name, its state and the decision, never its input or output (the journal keeps neither: `input` is `{}`).
 * A denial reads `output-denied` with `approval: { id, approved: false, reason? }`; an approval reads
 * `output-available` (`output: null`) in a completed turn, else `output-error` (the journal keeps no outcome
 * of the call: its `errorText` says how the turn ended), with `approval: { id, approved: true }`; an answered
 * `ask_user` question reads `output-available`, with no `approval`. `toolCallId` and `approval.id` are the
 * request's id. A policy's decisions (the workflow's `toolApproval`, a tool approved for the session) are left
 * out, as a live stream never asked for them. Without `journal`, ended turns have text parts only; the handler's
 * `GET /sessions/:id/ui-messages` passes it, and adds the tool parts (with their inputs) of a turn still running.
 *
 * The files a turn sent (`turn.files`) are `file` parts of its user message, before its text as `useChat`
 * sends them (a message of files alone has no text part), when `fileUrl` says where each is served; the bytes never go in a message
 * (the handler's `/ui-messages` points at its own `GET /sessions/:id/files/:fileId`). Without `fileUrl`, a
 * turn's files are left out.
 *
 * @param options.fileUrl The URL a `file` part points at, for each file of a turn.
 * @param options.journal The session's journal (`chat.store.read(session.id)`), for the decisions of its ended turns.
 * @example
 * const messages = toUIMessages(await session.turns(), { journal: await chat.store.read(session.id) });
 */
export function toUIMessages(
  turns: readonly TurnRecord[],
  options: { fileUrl?: (file: FileRef, turn: TurnRecord) => string; journal?: readonly JournalEntry[] } = {},
): UIMessage[] {
  const decisions = options.journal === undefined ? undefined : decisionsByTurn(options.journal);
  const messages: UIMessage[] = [];
  for (const turn of turns) {
    const files: UIMessage["parts"] =
      options.fileUrl === undefined
        ? []
        : (turn.files ?? []).map((file) => ({
            type: "file",
            mediaType: file.mediaType,
            ...(file.filename !== undefined && { filename: file.filename }),
            url: options.fileUrl!(file, turn),
          }));
    const text: UIMessage["parts"] = turn.input === "" && files.length > 0 ? [] : [{ type: "text", text: turn.input }];
    // Files before the text, as `useChat`'s `sendMessage({ text, files })` builds the message.
    messages.push({ id: uiUserMessageId(turn.id), role: "user", parts: [...files, ...text] });
    const reply = turn.text === undefined ? "" : redactText(turn.text);
    if (reply === "" && turn.status === "running") continue;
    const tools = endedStatus(turn) === undefined ? [] : (decisions?.get(turn.id) ?? []).map((entry) => toolPart(entry, turn));
    messages.push({
      id: turn.id,
      role: "assistant",
      metadata: { turnStatus: turn.status, ...(turn.checkpointUnreadable !== undefined && { checkpointUnreadable: turn.checkpointUnreadable }), ...teamOf(turn) },
      parts: [...reasoningParts(turn), ...tools, ...(reply === "" ? [] : [{ type: "text" as const, text: reply, state: "done" as const }]), ...sourceParts(turn)],
    });
  }
  return messages;
}

/** A turn's journaled reasoning (`journal: { reasoning: true }`) as one `reasoning` part, redacted as its text is. */
function reasoningParts(turn: TurnRecord): UIMessage["parts"] {
  return turn.reasoning === undefined || turn.reasoning === "" ? [] : [{ type: "reasoning", text: redactText(turn.reasoning), state: "done" }];
}

/** The sources a turn's reply cited, as `useChat`'s `source-url` and `source-document` parts (after its text, where a live stream puts them). */
function sourceParts(turn: TurnRecord): UIMessage["parts"] {
  return (turn.sources ?? []).map((source) => {
    const safe = redact(source);
    return safe.sourceType === "url"
      ? { type: "source-url" as const, sourceId: safe.id, url: safe.url, ...(safe.title !== undefined && { title: safe.title }) }
      : { type: "source-document" as const, sourceId: safe.id, mediaType: safe.mediaType, title: safe.title, ...(safe.filename !== undefined && { filename: safe.filename }) };
  });
}

/** A person's decision on one request of a turn, as its `approval` entry journals it. */
type Decision = Pick<ApprovalEntry, "toolName" | "approved" | "reason"> & { requestId: string };

type EndedStatus = "completed" | "failed" | "canceled" | "blocked";

function endedStatus(turn: TurnRecord): EndedStatus | undefined {
  const { status } = turn;
  return status === "completed" || status === "failed" || status === "canceled" || status === "blocked" ? status : undefined;
}

/** The decisions a person took, by turn, in journal order: one per request (the first, should a request be journaled twice). */
function decisionsByTurn(journal: readonly JournalEntry[]): Map<string, Decision[]> {
  const byTurn = new Map<string, Decision[]>();
  const seen = new Set<string>();
  for (const entry of journal) {
    if (entry.type !== "approval" || entry.decidedBy !== undefined || entry.turnId === undefined || entry.requestId === undefined) continue;
    const key = JSON.stringify([entry.turnId, entry.requestId]);
    if (seen.has(key)) continue;
    seen.add(key);
    const decision: Decision = { requestId: entry.requestId, toolName: entry.toolName, approved: entry.approved, ...(entry.reason !== undefined && { reason: entry.reason }) };
    const list = byTurn.get(entry.turnId);
    if (list) list.push(decision);
    else byTurn.set(entry.turnId, [decision]);
  }
  return byTurn;
}

const ENDED_WORDS: Record<Exclude<EndedStatus, "completed">, string> = { failed: "failed", canceled: "was canceled", blocked: "was blocked" };

/** An ended turn's decided request as a tool part: its name, state and decision; `input` `{}` (the journal keeps none). */
function toolPart(entry: Decision, turn: TurnRecord): DynamicToolUIPart {
  const base = { type: "dynamic-tool" as const, toolName: entry.toolName, toolCallId: entry.requestId, input: {} };
  if (entry.toolName === ASK_USER_TOOL) return { ...base, state: "output-available", output: null };
  const reason = entry.reason === undefined ? {} : { reason: redactText(entry.reason) };
  if (!entry.approved) return { ...base, state: "output-denied", approval: { id: entry.requestId, approved: false, ...reason } };
  const approval = { id: entry.requestId, approved: true as const, ...reason };
  const status = endedStatus(turn) ?? "completed";
  if (status === "completed") return { ...base, state: "output-available", output: null, approval };
  return { ...base, state: "output-error", errorText: `The turn ${ENDED_WORDS[status]} (the journal keeps no outcome of this call)`, approval };
}

/** A team's turn: the agent that answered and its handoffs (reasons redacted), as the live stream's `finish` says them. */
function teamOf(turn: TurnRecord): Pick<TurnMetadata, "agent" | "handoff"> | undefined {
  const metadata = turn.metadata;
  if (!metadata?.agent) return undefined;
  const redacted = (record: HandoffRecord): HandoffRecord => (record.reason === undefined ? { ...record } : { ...record, reason: redactText(record.reason) });
  const handoff = metadata.handoff === undefined ? undefined : Array.isArray(metadata.handoff) ? metadata.handoff.map(redacted) : redacted(metadata.handoff);
  return { agent: { ...metadata.agent }, ...(handoff !== undefined && { handoff }) };
}
