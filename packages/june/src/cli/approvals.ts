import type { ApprovalDecision, ApprovalRequest, DecisionOutcome } from "../runtime/types.js";
import { ApprovalEditRefusedError, ToolInputInvalidError } from "../runtime/errors.js";
import { ApprovalNotPendingError, TurnEndedError } from "../chat/errors.js";
import type { Turn } from "../chat/types.js";
import type { ApprovalMode } from "./args.js";
import type { CliIO } from "./io.js";
import type { LineReader } from "./line-reader.js";
import { approvalAnswer, renderApprovalDecision, renderApprovalPrompt, renderErrorLine } from "./render.js";
import type { Screen } from "./screen.js";
import { approvalView, type ApprovalView } from "../chat/trace/approval-view.js";
import type { CliJsonEvent } from "./json-events.js";

/** Answers tool approval requests for a turn or a run. */
export interface Approver {
  /**
   * The decision, or `undefined` when `signal` aborted first (the turn was canceled). `refused`: an earlier
   * answer's edited input that the tool's schema refused (shown, and the person is asked again).
   */
  decide(request: ApprovalRequest, signal: AbortSignal, refused?: string): Promise<ApprovalDecision | undefined>;
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
}

/**
 * `--yes` approves every request and `--deny` denies every one; otherwise each is asked on stderr and
 * answered from the terminal (`y` approves, `e` edits the input first: in `$VISUAL` or `$EDITOR`, or field by
 * field when neither is set; anything else denies). With no terminal to ask, every request is denied with the
 * reason "no one to approve", never approved.
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
    async decide(request, signal, refused) {
      switch (mode) {
        case "yes":
          return decided(request, { approved: true });
        case "deny":
          return decided(request, { approved: false, reason: "denied with --deny" });
        case "ask": {
          if (!io.stdin.isTTY) return decided(request, { approved: false, reason: NO_ONE_TO_APPROVE });
          const prompt = renderApprovalPrompt(request, screen.err, io.redact);
          screen.beforePrompt();
          if (refused !== undefined) screen.note(renderErrorLine(refused, screen.err));
          screen.note(prompt.header);
          let answer: string | undefined;
          try {
            answer = await options.reader().question(prompt.question, { signal, fresh: true });
            if (answer !== undefined && approvalAnswer(answer) === "edit") {
              const input = await editInput(request.input, options, signal);
              if (input === undefined) return signal.aborted ? undefined : { approved: false, reason: "denied by the user" };
              return { approved: true, input };
            }
          } finally {
            screen.afterPrompt();
          }
          if (answer === undefined) {
            if (signal.aborted) return undefined;
            return decided(request, { approved: false, reason: NO_ONE_TO_APPROVE });
          }
          return approvalAnswer(answer) === "approve" ? { approved: true } : { approved: false, reason: "denied by the user" };
        }
        default: {
          const unreachable: never = mode;
          throw new TypeError(`Unknown approval mode ${String(unreachable)}`);
        }
      }
    },
  };
}

/**
 * An edited input: the JSON opened in `$VISUAL` / `$EDITOR`, or, with neither, asked field by field (an
 * empty answer keeps the field; an answer that parses as JSON is that value, anything else a string).
 * `undefined` when the edit was abandoned (the editor failed, or no answer came).
 */
async function editInput(input: unknown, options: CreateApproverOptions, signal: AbortSignal): Promise<unknown> {
  const { io, screen } = options;
  const editor = io.env.VISUAL || io.env.EDITOR;
  if (editor && io.editText) {
    for (;;) {
      const text = await io.editText(`${JSON.stringify(input, null, 2)}\n`, editor);
      if (text === undefined) return undefined;
      try {
        return JSON.parse(text) as unknown;
      } catch (error) {
        screen.note(renderErrorLine(`the edited input is not JSON (${(error as Error).message}); opening it again`, screen.err));
        input = text;
      }
    }
  }
  // What each field shows is redacted as the prompt's input is: Enter keeps the value itself.
  const shown = io.redact(input);
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    const answer = await options.reader().question(`input (JSON) [${JSON.stringify(shown)}]: `, { signal });
    return answer === undefined ? undefined : answer.trim() === "" ? input : parseField(answer);
  }
  const edited: Record<string, unknown> = { ...(input as Record<string, unknown>) };
  for (const key of Object.keys(edited)) {
    const answer = await options.reader().question(`  ${key} [${JSON.stringify((shown as Record<string, unknown>)[key])}]: `, { signal });
    if (answer === undefined) return undefined;
    if (answer.trim() !== "") edited[key] = parseField(answer);
  }
  return edited;
}

function parseField(answer: string): unknown {
  try {
    return JSON.parse(answer) as unknown;
  } catch {
    return answer.trim();
  }
}

/**
 * What takes approval decisions: a run handle, or a turn through `approvalTarget`. `decide` says what
 * happened; a refused edited input throws `ToolInputInvalidError` or `ApprovalEditRefusedError` (still pending).
 */
export interface ApprovalTarget {
  readonly requests: readonly ApprovalRequest[];
  decide(id: string, decision: ApprovalDecision): DecisionOutcome | Promise<DecisionOutcome>;
  /** A durable turn: keeps it from suspending while its request is being asked. */
  holdSuspend?(): () => void;
}

/** A turn as an approval target: decided through its typed `control`. */
export function approvalTarget(turn: Turn): ApprovalTarget {
  return {
    get requests() {
      return turn.requests;
    },
    async decide(id, decision) {
      try {
        await turn.control(
          decision.approved
            ? { type: "approve", approvalId: id, ...(decision.input !== undefined ? { input: decision.input } : {}) }
            : { type: "deny", approvalId: id, ...(decision.reason !== undefined ? { reason: decision.reason } : {}) },
        );
        return { kind: "decided" };
      } catch (error) {
        if (ApprovalNotPendingError.isInstance(error)) return { kind: "not-pending" };
        if (TurnEndedError.isInstance(error)) return { kind: "ended" };
        throw error;
      }
    },
    ...(turn.holdSuspend ? { holdSuspend: () => turn.holdSuspend!() } : {}),
  };
}

export interface AskApprovalOptions {
  request: ApprovalRequest;
  target: ApprovalTarget;
  approver: Approver;
  signal: AbortSignal;
  /** With `--json`: prints the request and the decision taken as JSON lines. */
  emit?: (event: CliJsonEvent) => void;
  /** The request as the turn's stream showed it (printed with `emit`); default: `approvalView(request)`. */
  shown?: ApprovalView;
}

/**
 * Asks for one request, the same way for `june run` and a chat turn: a request the target has since withdrawn
 * or decided is skipped (events are buffered), the decision is passed to the target, and with `--json` the
 * request and the decision taken are printed.
 */
export async function askApproval(options: AskApprovalOptions): Promise<void> {
  const { request, target, emit } = options;
  if (!target.requests.some((pending) => pending.id === request.id)) return;
  emit?.({ type: "approval-request", request: options.shown ?? approvalView(request) });
  // A person at the prompt never sees the turn vanish: a durable turn does not suspend while it is open
  // (released once the decision is passed on).
  const release = target.holdSuspend?.();
  try {
    let refused: string | undefined;
    for (;;) {
      const decision = await options.approver.decide(request, options.signal, refused);
      if (!decision) return;
      let outcome: DecisionOutcome;
      try {
        outcome = await target.decide(request.id, decision);
      } catch (error) {
        // An edit the tool's schema, a guardrail or the policy refuses leaves the request pending: say why and ask again.
        if (!ToolInputInvalidError.isInstance(error) && !ApprovalEditRefusedError.isInstance(error)) throw error;
        refused = error.message;
        continue;
      }
      if (emit && outcome.kind === "decided") {
        emit({
          type: "approval",
          id: request.id,
          toolName: request.toolName,
          approved: decision.approved,
          ...(!decision.approved && decision.reason ? { reason: decision.reason } : {}),
          ...(decision.approved && decision.input !== undefined ? { edited: true } : {}),
        });
      }
      return;
    }
  } finally {
    release?.();
  }
}
