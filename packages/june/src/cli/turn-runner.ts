import { projectChatTrace, type ChatTraceRow } from "../chat/trace/project-chat-trace.js";
import { redact, redactText } from "../redaction/redact.js";
import { StreamRedactor } from "../redaction/stream-redactor.js";
import type { Turn, TurnResult } from "../chat/types.js";
import { TurnSuspendedError } from "../chat/errors.js";
import { askApproval, type Approver } from "./approvals.js";
import { cancelOnInterrupt, EXIT_CANCELED } from "./cancel-on-interrupt.js";
import type { CliIO } from "./io.js";
import { jsonError, jsonLine, type CliJsonEvent } from "./json-events.js";
import { redactOptionsOf } from "./redact-patterns.js";
import { describeFailure, renderErrorLine, renderProgressLine } from "./render.js";
import type { ModelSpec } from "./models.js";
import { explainProviderError } from "./provider-errors.js";
import type { Screen } from "./screen.js";

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
}

/**
 * Shows one turn as it runs: the reply streamed to stdout, the progress line and approvals on stderr (or,
 * with `json`, every event as a JSON line), and answers approvals with `approver`. The first Ctrl-C cancels
 * the turn, a second quits. Resolves with how the turn ended; never rejects for the turn's own failure.
 */
export async function showTurn(options: ShowTurnOptions): Promise<TurnExit> {
  const { io, screen, turn, approver, json } = options;
  // Everything printed is redacted as the HTTP stream redacts it: one function for every surface, and the
  // reply through a StreamRedactor, since a key may come split across deltas.
  const own = redactOptionsOf(io.env);
  const emit = (event: CliJsonEvent) => screen.data(jsonLine(redact(event, own)));
  const interrupt = cancelOnInterrupt({ io, screen, cancel: () => turn.cancel() });
  const reply = new StreamRedactor(own);
  const write = (text: string) => {
    if (text === "") return;
    if (json) emit({ type: "text-delta", text });
    else screen.reply(text);
  };

  if (json) emit({ type: "turn-start", sessionId: turn.sessionId, turnId: turn.id, input: options.input });
  let outcome: TurnExit;
  let streamed = "";
  try {
    for await (const event of turn) {
      switch (event.type) {
        case "text-delta":
          streamed += event.text;
          write(reply.push(event.text));
          break;
        case "run-update": {
          const rows: ChatTraceRow[] = projectChatTrace(event.tree, { requests: turn.requests });
          if (json) emit({ type: "run-update", rows });
          screen.status(renderProgressLine(rows, { colors: screen.err, columns: io.stderr.columns }));
          break;
        }
        case "approval-request": {
          // The text before a tool call is complete: show all of it before asking.
          write(reply.flush());
          // Events are buffered: askApproval skips a request the run has since withdrawn or that was decided.
          await askApproval({ request: event.request, target: turn, approver, signal: interrupt.signal, ...(json ? { emit } : {}) });
          break;
        }
        default: {
          const unreachable: never = event;
          throw new TypeError(`Unknown turn event ${String((unreachable as { type: unknown }).type)}`);
        }
      }
    }
    outcome = { status: "completed", result: await turn.result };
    write(reply.flush());
    // A reply that did not stream (an agent with no `stream` step) arrives whole, in the result.
    const { text } = outcome.result;
    if (!json && text.startsWith(streamed)) screen.reply(redactText(text.slice(streamed.length), own));
  } catch (error) {
    write(reply.flush());
    outcome = turn.status === "canceled" || interrupt.signal.aborted ? { status: "canceled" } : { status: "failed", error };
  } finally {
    interrupt.dispose();
    screen.resetStatus();
  }

  if (!json) screen.endReply({ always: options.newlineAfterReply });
  switch (outcome.status) {
    case "completed":
      if (json) {
        emit({
          type: "turn-end",
          sessionId: turn.sessionId,
          turnId: turn.id,
          status: "completed",
          text: outcome.result.text,
          metadata: outcome.result.metadata,
        });
      }
      break;
    case "failed":
      if (json) {
        emit({ type: "turn-end", sessionId: turn.sessionId, turnId: turn.id, status: "failed", error: jsonError(outcome.error) });
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
      if (json) emit({ type: "turn-end", sessionId: turn.sessionId, turnId: turn.id, status: "canceled" });
      screen.note(screen.err.yellow("canceled"));
      break;
    default: {
      const unreachable: never = outcome;
      throw new TypeError(`Unknown turn outcome ${String((unreachable as TurnExit).status)}`);
    }
  }
  return outcome;
}
