import type { TextRedactOptions } from "../redaction/redact.js";
import type { ApprovalRequest } from "../runtime/types.js";
import type { ApprovalMode } from "./args.js";
import type { CliIO } from "./io.js";
import type { LineReader } from "./line-reader.js";
import { isApproval, renderApprovalDecision, renderApprovalPrompt } from "./render.js";
import type { Screen } from "./screen.js";
import type { StreamApprovalRequest } from "../chat/stream/turn-stream-event.js";
import { streamApprovalRequest } from "../chat/stream/turn-stream.js";
import type { CliJsonEvent } from "./json-events.js";

/** How a tool approval was answered. */
export interface ApprovalDecision {
  approved: boolean;
  reason?: string;
}

/** Answers tool approval requests for a turn or a run. */
export interface Approver {
  /** The decision, or `undefined` when `signal` aborted first (the turn was canceled). */
  decide(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision | undefined>;
  /**
   * A person's answer to a question the turn asks (`<AskUser />`), read from the terminal; `undefined` when
   * no one can answer (no terminal, `--yes`/`--deny`) or `signal` aborted first.
   */
  answer?(question: string, signal: AbortSignal): Promise<string | undefined>;
}

/** The reason given when no one is there to approve. */
export const NO_ONE_TO_APPROVE = "no one to approve";

export interface CreateApproverOptions {
  mode: ApprovalMode;
  io: CliIO;
  screen: Screen;
  /** The terminal's line reader, made when first needed. */
  reader: () => LineReader;
  /** Patterns of the user's own (`JUNE_REDACT`), masked in the tool input a prompt shows. */
  redaction?: TextRedactOptions;
}

/**
 * `--yes` approves every request and `--deny` denies every one; otherwise each is asked on stderr and
 * answered from the terminal (`y` approves, anything else denies). With no terminal to ask, every request
 * is denied with the reason "no one to approve", never approved.
 */
export function createApprover(options: CreateApproverOptions): Approver {
  const { mode, io, screen } = options;
  const decided = (request: ApprovalRequest, decision: ApprovalDecision): ApprovalDecision => {
    screen.note(renderApprovalDecision({ toolName: request.toolName, ...decision }, screen.err));
    return decision;
  };
  return {
    async answer(question, signal) {
      if (mode !== "ask" || !io.stdin.isTTY) return undefined;
      screen.beforePrompt();
      screen.note(screen.err.bold(`? ${question}`));
      try {
        return await options.reader().question("answer> ", { signal, fresh: true });
      } finally {
        screen.afterPrompt();
      }
    },
    async decide(request, signal) {
      switch (mode) {
        case "yes":
          return decided(request, { approved: true });
        case "deny":
          return decided(request, { approved: false, reason: "denied with --deny" });
        case "ask": {
          if (!io.stdin.isTTY) return decided(request, { approved: false, reason: NO_ONE_TO_APPROVE });
          const prompt = renderApprovalPrompt(request, screen.err, options.redaction);
          screen.beforePrompt();
          screen.note(prompt.header);
          let answer: string | undefined;
          try {
            answer = await options.reader().question(prompt.question, { signal, fresh: true });
          } finally {
            screen.afterPrompt();
          }
          if (answer === undefined) {
            if (signal.aborted) return undefined;
            return decided(request, { approved: false, reason: NO_ONE_TO_APPROVE });
          }
          return isApproval(answer) ? { approved: true } : { approved: false, reason: "denied by the user" };
        }
        default: {
          const unreachable: never = mode;
          throw new TypeError(`Unknown approval mode ${String(unreachable)}`);
        }
      }
    },
  };
}

/** What takes approval decisions: a turn or a run handle. */
export interface ApprovalTarget {
  readonly requests: readonly ApprovalRequest[];
  approve(id: string): boolean;
  deny(id: string, reason?: string): boolean;
  /** A durable turn: keeps it from suspending while its request is being asked. */
  holdSuspend?(): () => void;
}

export interface AskApprovalOptions {
  request: ApprovalRequest;
  target: ApprovalTarget;
  approver: Approver;
  signal: AbortSignal;
  /** With `--json`: prints the request and the decision taken as JSON lines. */
  emit?: (event: CliJsonEvent) => void;
  /** The request as the turn's stream showed it (printed with `emit`); default: `streamApprovalRequest(request)`. */
  shown?: StreamApprovalRequest;
}

/**
 * Asks for one request, the same way for `june run` and a chat turn: a request the target has since withdrawn
 * or decided is skipped (events are buffered), the decision is passed to the target, and with `--json` the
 * request and the decision taken are printed.
 */
export async function askApproval(options: AskApprovalOptions): Promise<void> {
  const { request, target, emit } = options;
  if (!target.requests.some((pending) => pending.id === request.id)) return;
  emit?.({ type: "approval-request", request: options.shown ?? streamApprovalRequest(request) });
  // A person at the prompt never sees the turn vanish: a durable turn does not suspend while it is open
  // (released once the decision is passed on).
  const release = target.holdSuspend?.();
  try {
    const decision = await options.approver.decide(request, options.signal);
    if (!decision) return;
    const taken = decision.approved ? target.approve(request.id) : target.deny(request.id, decision.reason);
    if (emit && taken) {
      emit({
        type: "approval",
        id: request.id,
        toolName: request.toolName,
        approved: decision.approved,
        ...(decision.reason ? { reason: decision.reason } : {}),
      });
    }
  } finally {
    release?.();
  }
}
