import { ASK_USER_TOOL } from "../ask/ask-user.js";
import type { FinishReason, UIMessageChunk } from "ai";
import type { TurnEndStatus, TurnStreamEvent } from "../chat/stream/turn-stream-event.js";
import type { TurnMetadata } from "../stores/types.js";
import type { ChatTraceRow, ChatTraceToolRow } from "../chat/trace/project-chat-trace.js";
import { decidedApprovalChunks, type UiDecision } from "./ui-approval-chunks.js";
import { UiOutputParts } from "./ui-output-parts.js";
import { traceChunk } from "./ui-trace-part.js";
import { UiAsides, type UiSend } from "./ui-asides.js";

/**
 * A tool call the client was shown for approval, as its own message holds it: the server keeps no state
 * between the requests of one reply, so a reply can continue through any process.
 */
export interface UiTool {
  toolCallId: string;
  /** The client's answer (`addToolApprovalResponse`), when it gave one. */
  approved?: boolean;
  /** True once the client has its outcome (output, error or denial). */
  resolved: boolean;
}

const FINISH_REASONS: ReadonlySet<string> = new Set(["stop", "length", "content-filter", "tool-calls", "error", "other"]);

/**
 * Encodes a turn's stream as the AI SDK's UI message chunks (`useChat`'s protocol), tracking in `tools`
 * what the client was shown. It only encodes: every event is already projected and redacted by
 * `turnStream`, so the chunks carry what SSE and `--json` carry; a tool call's input is the stream's
 * `request.inputValue`, a failure its `errorInfo`.
 *
 * | turn stream | UI message chunks |
 * | --- | --- |
 * | `text-delta` | `text-start` (once per text part), `text-delta` |
 * | `reasoning-start`, `-delta`, `-end`; `source` | the AI SDK's `reasoning-*`, `source-url`, `source-document` (see `UiAsides`) |
 * | `approval-request` | `text-end`, `tool-input-available` (dynamic), `tool-approval-request` (or, for one decided already, see `decidedApprovalChunks`) |
 * | `run-update` | `tool-output-available`, `tool-output-error` or `tool-output-denied` for a shown call its rows settled; `data-june-output` for a streamed step's changed `output` (`UiOutputParts`); with `traceId`, `data-june-trace` (its rows) |
 * | `turn-end` | `text-end`, outcomes for calls still open, then `error` (failed) or `abort` (canceled); the `finish` says its `turnStatus` |
 */
export class UiChunker {
  readonly #tools: Map<string, UiTool>;
  readonly #write: (chunk: UIMessageChunk) => void;
  readonly #decided: ReadonlyMap<string, UiDecision>;
  readonly #outputs: UiOutputParts;
  readonly #asides: UiAsides;
  #textId: string | undefined;
  finishReason: FinishReason = "stop";
  /** The `data-june-trace` part's id (the turn's) when the trace is sent: each `run-update` then writes its rows. */
  traceId: string | undefined;
  /** How the turn ended, once its `turn-end` is in: the message's `metadata.turnStatus` from then on. */
  turnStatus: TurnEndStatus | undefined;
  /** A team's turn: the agent that answered and the handoffs before it (the message's `metadata.agent`, `handoff`). */
  agents: Pick<TurnMetadata, "agent" | "handoff"> | undefined;

  /**
   * @param tools The tool calls the client holds, by call id; those this stream shows are added.
   * @param decided Decisions taken already, by call id (a replay): their requests are shown as answered.
   * @param send Whether reasoning and sources go out (`uiChat`'s `sendReasoning`, `sendSources`).
   */
  constructor(tools: Map<string, UiTool>, write: (chunk: UIMessageChunk) => void, decided: ReadonlyMap<string, UiDecision> = new Map(), send: UiSend = { reasoning: true, sources: true }) {
    this.#tools = tools;
    this.#write = write;
    this.#decided = decided;
    this.#outputs = new UiOutputParts(write);
    this.#asides = new UiAsides(write, send);
  }

  /** True when the event asks the client for a decision it has not seen (its stream then ends there). */
  asks(event: TurnStreamEvent): boolean {
    if (event.type === "input-request") return !this.#tools.has(event.request.id);
    return event.type === "approval-request" && !this.#tools.has(event.request.toolCallId) && !this.#decided.has(event.request.toolCallId);
  }

  endText(): void {
    this.#asides.end();
    if (this.#textId === undefined) return;
    this.#write({ type: "text-end", id: this.#textId });
    this.#textId = undefined;
  }

  /** Denials the client just sent are settled already: shows them at once. */
  showDenials(): void {
    for (const tool of this.#tools.values()) {
      if (!tool.resolved && tool.approved === false) {
        this.#write({ type: "tool-output-denied", toolCallId: tool.toolCallId });
        tool.resolved = true;
      }
    }
  }

  /** Writes the chunks of the turn's event at `index`. */
  handle(event: TurnStreamEvent, index: number): void {
    const tools = this.#tools;
    const write = this.#write;
    switch (event.type) {
      case "turn-start":
        return;
      case "text-delta":
        if (event.text === "") return;
        if (this.#textId === undefined) {
          // Unique in the turn's message (its first delta's index), and short: it goes out with every delta.
          this.#textId = `t${index}`;
          write({ type: "text-start", id: this.#textId });
        }
        write({ type: "text-delta", id: this.#textId, delta: event.text });
        return;
      case "reasoning-start":
      case "source":
        // What follows is a text part of its own, after this.
        this.endText();
        this.#asides.handle(event, index);
        return;
      case "reasoning-delta":
      case "reasoning-end":
        this.#asides.handle(event, index);
        return;
      case "run-update":
        this.#resolveTools(event.rows);
        this.#outputs.update(event.rows);
        if (this.traceId !== undefined) write(traceChunk(this.traceId, event.rows));
        return;
      case "input-request": {
        // A question is an `ask_user` tool call the client answers with its output (`addToolOutput`): named by
        // the request's id, which the answer the client sends back names in turn.
        const { id, question } = event.request;
        if (tools.get(id)?.resolved) return;
        tools.set(id, { toolCallId: id, resolved: false });
        write({ type: "tool-input-available", toolCallId: id, toolName: ASK_USER_TOOL, input: { question }, dynamic: true });
        return;
      }
      case "policy-decision":
        // The run-update that came before it shows the call decided (its row says by policy, and why).
        return;
      case "approval-request": {
        const { request } = event;
        if (tools.has(request.toolCallId)) return;
        this.endText();
        const decision = this.#decided.get(request.toolCallId);
        tools.set(request.toolCallId, { toolCallId: request.toolCallId, resolved: false, ...(decision && { approved: decision.approved }) });
        write({
          type: "tool-input-available",
          toolCallId: request.toolCallId,
          toolName: request.toolName,
          input: request.inputValue,
          dynamic: true,
        });
        if (decision) for (const chunk of decidedApprovalChunks(request.id, request.toolCallId, decision)) write(chunk);
        else write({ type: "tool-approval-request", approvalId: request.id, toolCallId: request.toolCallId });
        return;
      }
      case "turn-end":
        this.endText();
        this.#settleTools(event.status);
        this.turnStatus = event.status;
        if (event.metadata?.agent) this.agents = { agent: event.metadata.agent, ...(event.metadata.handoff !== undefined && { handoff: event.metadata.handoff }) };
        if (event.status === "failed") {
          const error = event.error ?? { name: "Error", message: "The turn failed" };
          write({ type: "error", errorText: `${error.name}: ${error.message}` });
          this.finishReason = "error";
        } else if (event.status === "blocked") {
          // A guardrail tripped: the refusal is the turn's error, and the reply (if any streamed) does not count.
          const error = event.error ?? { name: "GuardrailTrippedError", message: "Blocked by a guardrail" };
          write({ type: "error", errorText: `${error.name}: ${error.message}` });
          this.finishReason = "content-filter";
        } else if (event.status === "canceled") {
          write({ type: "abort", reason: "The turn was canceled" });
          this.finishReason = "other";
        } else {
          const reason = event.metadata?.finishReason;
          this.finishReason = reason !== undefined && FINISH_REASONS.has(reason) ? (reason as FinishReason) : "stop";
        }
        return;
      default: {
        const unreachable: never = event;
        void unreachable;
      }
    }
  }

  /** Tool calls the client was shown, settled as the trace shows them. */
  #resolveTools(rows: readonly ChatTraceRow[]): void {
    for (const tool of this.#tools.values()) {
      if (tool.resolved) continue;
      const row = findToolRow(rows, tool.toolCallId);
      if (!row) continue;
      if (row.approval?.state === "denied") {
        this.#write({ type: "tool-output-denied", toolCallId: tool.toolCallId });
      } else if (row.status === "done") {
        this.#write({ type: "tool-output-available", toolCallId: tool.toolCallId, output: row.output ?? null, dynamic: true });
      } else if (row.status === "error") {
        this.#write({ type: "tool-output-error", toolCallId: tool.toolCallId, errorText: row.error ?? `${row.toolName} failed`, dynamic: true });
      } else {
        continue;
      }
      tool.resolved = true;
    }
  }

  /** At the turn's end every tool call shown gets an outcome, so the client never resends for it. */
  #settleTools(status: TurnEndStatus): void {
    for (const tool of this.#tools.values()) {
      if (tool.resolved) continue;
      tool.resolved = true;
      if (tool.approved === false) {
        this.#write({ type: "tool-output-denied", toolCallId: tool.toolCallId });
      } else if (status === "completed" && tool.approved === true) {
        this.#write({ type: "tool-output-available", toolCallId: tool.toolCallId, output: null, dynamic: true });
      } else {
        this.#write({ type: "tool-output-error", toolCallId: tool.toolCallId, errorText: `The turn ${status === "completed" ? "ended" : status} before the tool ran`, dynamic: true });
      }
    }
  }
}

/** The decisions the turn's trace shows so far (its last `run-update`), by tool call id. */
export function decisionsIn(events: readonly TurnStreamEvent[]): Map<string, UiDecision> {
  const decided = new Map<string, UiDecision>();
  const last = events.findLast((event) => event.type === "run-update");
  const visit = (rows: readonly ChatTraceRow[]) => {
    for (const row of rows) {
      const state = row.kind === "tool" ? row.approval?.state : undefined;
      if (row.kind === "tool" && (state === "approved" || state === "denied")) {
        decided.set(row.toolCallId, { approved: state === "approved", ...(row.approval?.reason !== undefined && { reason: row.approval.reason }) });
      }
      visit(row.children);
    }
  };
  if (last?.type === "run-update") visit(last.rows);
  return decided;
}

function findToolRow(rows: readonly ChatTraceRow[], toolCallId: string): ChatTraceToolRow | undefined {
  for (const row of rows) {
    if (row.kind === "tool" && row.toolCallId === toolCallId) return row;
    const found = findToolRow(row.children, toolCallId);
    if (found) return found;
  }
  return undefined;
}
