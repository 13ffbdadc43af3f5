import type { TurnEndStreamEvent } from "../chat/stream/turn-stream-event.js";
import { turnStream } from "../chat/stream/turn-stream.js";
import { errorInfo } from "../chat/stream/error-info.js";
import type { TextRedactOptions } from "../redaction/redact.js";
import type { Turn, TurnResult } from "../chat/types.js";
import { TurnSuspendedError } from "../chat/errors.js";
import { GuardrailTrippedError } from "../errors/guardrail-tripped-error.js";
import { approvalTarget, askApproval, type Approver } from "./approvals.js";
import { cancelOnInterrupt, EXIT_CANCELED } from "./cancel-on-interrupt.js";
import type { CliIO } from "./io.js";
import { jsonLine, JsonTraceRows, type CliJsonEvent } from "./json-events.js";
import { describeFailure, renderErrorLine, renderProgressLine } from "./render.js";
import type { ModelSpec } from "./models.js";
import { explainProviderError } from "./provider-errors.js";
import type { Screen } from "./screen.js";
import { formatCost } from "../cost/price.js";
import { CliAsides } from "./asides.js";

/** How a turn ended, as the CLI reports it. */
export type TurnExit =
  | { status: "completed"; result: TurnResult }
  | { status: "failed"; error: unknown }
  | { status: "canceled" };

/** The exit code for a turn's outcome: 0 completed, 1 failed, 130 canceled. */
export function exitCodeOf(outcome: TurnExit): number {
  switch (outcome.status) {
    case "completed":
      return 0;
    case "failed":
      return 1;
    case "canceled":
      return EXIT_CANCELED;
    default: {
      const unreachable: never = outcome;
      throw new TypeError(`Unknown turn outcome ${String((unreachable as TurnExit).status)}`);
    }
  }
}

export interface ShowTurnOptions {
  io: CliIO;
  screen: Screen;
  turn: Turn;
  input: string;
  approver: Approver;
  /** Print every event as a JSON line on stdout instead of the reply. */
  json: boolean;
  /** End the reply with a newline even when stdout is not a terminal (replies of a piped `june chat`). */
  newlineAfterReply?: boolean;
  /** The `--model` the chat runs on, so a provider's failure can name the key or server to fix. */
  model?: ModelSpec;
  /** Show the model's reasoning, dimmed on stderr, each part once it is complete (`--reasoning`). */
  reasoning?: boolean;
}

/**
 * Shows one turn as it runs: the reply streamed to stdout, the progress line and approvals on stderr (or,
 * with `json`, every event as a JSON line), and answers approvals with `approver`. The first Ctrl-C cancels
 * the turn, a second quits. Resolves with how the turn ended; never rejects for the turn's own failure.
 */
export async function showTurn(options: ShowTurnOptions): Promise<TurnExit> {
  const { io, screen, turn, approver, json } = options;
  // What is printed is the turn's one stream, redacted and projected as the HTTP API sends it, with the output
  // gate's options (the user's JUNE_REDACT patterns over June's); the CLI only encodes it, as reply text or JSON lines.
  const { redaction } = io;
  const emit = (event: CliJsonEvent) => screen.data(jsonLine(event));
  const interrupt = cancelOnInterrupt({ io, screen, cancel: () => turn.cancel() });
  const traceRows = new JsonTraceRows();
  const asides = new CliAsides(screen);
  let shownText = "";
  let end: TurnEndStreamEvent | undefined;
  // An approver that threw (no terminal to ask, say) fails the turn as the CLI shows it.
  let thrown: { error: unknown } | undefined;
  try {
    for await (const { event } of turnStream(turn, { redaction })) {
      switch (event.type) {
        case "turn-start":
          if (json) emit({ ...event, input: io.redact(options.input) });
          break;
        case "text-delta":
          shownText += event.text;
          if (json) emit(event);
          else screen.reply(event.text);
          break;
        case "reasoning-start":
        case "reasoning-delta":
        case "reasoning-end":
        case "source":
          if (json) emit(event);
          else if (options.reasoning || event.type === "source") asides.take(event);
          break;
        case "run-update": {
          const changed = json ? traceRows.update(event.rows) : undefined;
          if (changed) emit(changed);
          screen.status(renderProgressLine(event.rows, { colors: screen.err, columns: io.stderr.columns }));
          break;
        }
        case "input-request": {
          // A question the workflow asks: answered at the prompt; with no one to answer, it is declined.
          if (!turn.requests.some((pending) => pending.id === event.request.id)) break;
          const release = turn.holdSuspend?.();
          try {
            const answer = await approver.answer?.(event.request.question, interrupt.signal);
            if (answer !== undefined) turn.answer(event.request.id, answer);
            else if (!interrupt.signal.aborted) {
              screen.note(screen.err.yellow(`no one to answer: ${event.request.question}`));
              turn.deny(event.request.id, "no one to answer");
            }
          } finally {
            release?.();
          }
          break;
        }
        case "policy-decision": {
          const { toolName, approved, reason } = event.decision;
          const line = `${toolName} ${approved ? "approved" : "denied"} by policy${reason !== undefined ? `: ${reason}` : ""}`;
          screen.note(approved ? screen.err.dim(line) : screen.err.yellow(line));
          break;
        }
        case "approval-request": {
          // Events are buffered: a request the run has since withdrawn or that was decided is skipped.
          const request = turn.requests.find((pending) => pending.id === event.request.id);
          if (!request) break;
          await askApproval({ request, shown: event.request, target: approvalTarget(turn), approver, signal: interrupt.signal, ...(json ? { emit } : {}) });
          break;
        }
        case "turn-end":
          end = event;
          break;
        default: {
          const unreachable: never = event;
          throw new TypeError(`Unknown turn stream event ${String((unreachable as { type: unknown }).type)}`);
        }
      }
    }
  } catch (error) {
    thrown = { error };
  } finally {
    interrupt.dispose();
    screen.resetStatus();
  }
  let outcome: TurnExit;
  try {
    if (thrown) throw thrown.error;
    outcome = { status: "completed", result: await turn.result };
    // A reply that did not stream (an agent with no `stream` step) arrives whole, in the result.
    const text = end?.text ?? "";
    if (!json && text.startsWith(shownText)) screen.reply(text.slice(shownText.length));
  } catch (error) {
    outcome = turn.status === "canceled" || interrupt.signal.aborted ? { status: "canceled" } : { status: "failed", error };
  }

  if (!json) {
    screen.endReply({ always: options.newlineAfterReply });
    asides.printSources();
  }
  if (json) emit(jsonTurnEnd(turn, outcome, end, redaction));
  switch (outcome.status) {
    case "completed": {
      // The turn's footer, for a person at a terminal: what it cost, when the model's price is known (a script
      // reads it from `--json`'s turn-end metadata; stderr off a terminal stays the session line alone).
      const line = !json && io.stderr.isTTY ? costLine(outcome.result) : undefined;
      if (line) screen.note(screen.err.dim(line));
      break;
    }
    case "failed":
      if (GuardrailTrippedError.isInstance(outcome.error)) {
        screen.note(screen.err.yellow(`blocked: ${outcome.error.message}`));
        break;
      }
      if (TurnSuspendedError.isInstance(outcome.error)) {
        screen.note(
          screen.err.yellow(`the turn suspended, waiting on approvals: june resume ${turn.sessionId} ${turn.id} continues it`),
        );
        break;
      }
      screen.note(
        renderErrorLine(
          `the turn failed: ${explainProviderError(outcome.error, { spec: options.model }) ?? describeFailure(outcome.error)}`,
          screen.err,
        ),
      );
      break;
    case "canceled":
      screen.note(screen.err.yellow("canceled"));
      break;
    default: {
      const unreachable: never = outcome;
      throw new TypeError(`Unknown turn outcome ${String((unreachable as TurnExit).status)}`);
    }
  }
  return outcome;
}

/** The stream's own `turn-end`, unless the CLI ended the turn otherwise (a Ctrl-C, an approver that threw). */
function jsonTurnEnd(turn: Turn, outcome: TurnExit, end: TurnEndStreamEvent | undefined, redaction: TextRedactOptions): TurnEndStreamEvent {
  const ids = { turnId: turn.id, sessionId: turn.sessionId };
  if (outcome.status === "canceled") return end?.status === "canceled" ? end : { type: "turn-end", ...ids, status: "canceled" };
  if (outcome.status === "failed" && end?.status !== "failed" && end?.status !== "suspended" && end?.status !== "blocked") {
    return { type: "turn-end", ...ids, status: "failed", error: errorInfo(outcome.error, { redaction }) };
  }
  return end ?? { type: "turn-end", ...ids, status: "completed" };
}

/** "1,500 tokens · $0.00045": a completed turn's cost, or undefined when its model's price is not known. */
export function costLine(result: TurnResult): string | undefined {
  const { cost, usage } = result.metadata;
  if (cost?.usd === undefined) return undefined;
  const tokens = usage?.totalTokens ?? (usage?.inputTokens ?? 0) + (usage?.outputTokens ?? 0);
  return `${tokens.toLocaleString("en-US")} tokens · ${formatCost(cost)}`;
}
