import type { Session, TurnRecord } from "../chat/types.js";
import { approvalTarget, askApproval, type Approver } from "./approvals.js";
import type { ApprovalMode } from "./args.js";
import { cancelOnInterrupt } from "./cancel-on-interrupt.js";
import { CliUsageError } from "./errors.js";
import type { CliIO } from "./io.js";
import type { ModelSpec } from "./models.js";
import { describeFailure, renderApprovalPrompt, renderErrorLine } from "./render.js";
import type { Screen } from "./screen.js";
import { showTurn, type TurnExit } from "./turn-runner.js";

/** True for a turn `session.resume` can continue: suspended, or interrupted with a checkpoint. */
export function isResumable(turn: TurnRecord): boolean {
  return turn.resumable === true;
}

/**
 * The turn to resume: `turnId` when given (a usage error when the session has no such turn or it cannot be
 * resumed), else the latest resumable turn, or `undefined` when there is none.
 */
export async function findResumable(session: Session, turnId: string | undefined): Promise<TurnRecord | undefined> {
  const turns = await session.turns();
  if (turnId === undefined) return turns.filter(isResumable).at(-1);
  // The whole id, or a prefix (with or without the help's "…") only one turn of the session has.
  const prefix = turnId.endsWith("…") ? turnId.slice(0, -1) : turnId;
  const matches = turns.filter((t) => t.id === turnId || (prefix.length > 0 && t.id.startsWith(prefix)));
  if (matches.length > 1 && !matches.some((t) => t.id === turnId)) {
    throw new CliUsageError(`"${turnId}" is the start of ${matches.length} turns' ids in session "${session.id}": type more of the id`);
  }
  const turn = matches.find((t) => t.id === turnId) ?? matches[0];
  if (!turn) throw new CliUsageError(`Session "${session.id}" has no turn "${turnId}" (june sessions show ${session.id} lists its turns)`);
  if (!isResumable(turn)) throw new CliUsageError(`Turn "${turnId}" of session "${session.id}" is ${turn.status}: nothing to resume`);
  return turn;
}

export interface ResumeTurnOptions {
  io: CliIO;
  screen: Screen;
  session: Session;
  turn: TurnRecord;
  mode: ApprovalMode;
  approver: Approver;
  json: boolean;
  newlineAfterReply?: boolean;
  model?: ModelSpec;
}

/**
 * Resumes a suspended (or interrupted) durable turn: shows each request it waits on (tool name and redacted
 * input) and asks for it (or decides by `--yes`/`--deny`), then streams the rest of the turn as `showTurn`
 * does. Asking without a terminal is a usage error before anything is resumed: no request is denied for want
 * of someone to ask.
 */
export async function resumeTurn(options: ResumeTurnOptions): Promise<TurnExit> {
  const { io, screen, session, turn: record, mode } = options;
  if (mode === "ask" && !io.stdin.isTTY) {
    throw new CliUsageError(
      `Turn "${record.id}" waits on approvals and there is no terminal to ask: pass --yes or --deny (june resume ${session.id} ${record.id} --yes)`,
    );
  }
  let live;
  try {
    live = await session.resume(record.id);
  } catch (error) {
    screen.note(renderErrorLine(`cannot resume turn ${record.id}: ${describeFailure(error)}`, screen.err));
    return { status: "failed", error };
  }
  const requests = [...live.requests];
  screen.note(
    screen.err.dim(`resuming turn ${record.id} · waiting on ${requests.length} approval${requests.length === 1 ? "" : "s"}`),
  );
  const interrupt = cancelOnInterrupt({ io, screen, cancel: () => live.cancel() });
  try {
    for (const request of requests) {
      if (interrupt.signal.aborted) break;
      // The approver shows the request when it asks; a decision by flag shows it here first.
      if (mode !== "ask") screen.note(renderApprovalPrompt(request, screen.err, io.redact).header);
      await askApproval({ request, target: approvalTarget(live), approver: options.approver, signal: interrupt.signal });
    }
  } finally {
    interrupt.dispose();
  }
  return showTurn({
    io,
    screen,
    turn: live,
    input: record.input,
    approver: options.approver,
    json: options.json,
    ...(options.newlineAfterReply ? { newlineAfterReply: true } : {}),
    ...(options.model ? { model: options.model } : {}),
  });
}

/**
 * Ends a suspended (or interrupted) durable turn without running anything (`session.cancel`): journaled
 * `canceled`, its checkpoint deleted, none of its requests decided. A turn another process runs (it resumed
 * it) is refused as busy: said on stderr, `"failed"`.
 */
export async function cancelResumable(options: { screen: Screen; session: Session; turn: TurnRecord }): Promise<"canceled" | "failed"> {
  const { screen, session, turn } = options;
  try {
    await session.cancel(turn.id);
  } catch (error) {
    screen.note(renderErrorLine(`cannot cancel turn ${turn.id}: ${describeFailure(error)}`, screen.err));
    return "failed";
  }
  screen.note(screen.err.dim(`canceled turn ${turn.id} · nothing ran`));
  return "canceled";
}
