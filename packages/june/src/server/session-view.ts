import type { Session, TurnRecord } from "../chat/types.js";
import type { HandlerContext } from "./handler-context.js";
import type { LocalTurn } from "./turn-registry.js";
import { isUnfinished } from "../chat/unfinished.js";

/** A session's current branch as every process serves it, whichever process runs its turn. */
export interface SessionView {
  /** The current branch's turns, oldest first; a turn running in another process reads `running`, as there. */
  turns: TurnRecord[];
  /** The id of the session's running turn, in this process or another one. */
  runningTurnId?: string;
  /** The running turn when it runs in this process (tracked, so its events can be rejoined). */
  local?: LocalTurn;
}


/**
 * The session's turns and its running turn. The journal of a durable turn that another process resumed still
 * ends in its `turn-suspend` (or, after a crash, in its `turn-start`): the session reads it `suspended` (or
 * `interrupted`) and `resumable`, which is true only where no process runs it. So a turn the bus says runs
 * elsewhere reads `running`, as the process running it shows it, and waits on no stored request.
 * A bus that cannot answer is a 503 (`HandlerContext.elsewhere`), or with `bestEffort` the journal's view.
 */
export async function sessionView(session: Session, context: HandlerContext, options: { bestEffort?: boolean } = {}): Promise<SessionView> {
  const turns = await session.turns();
  const current = session.currentTurn;
  if (current && current.status === "running") return { turns, runningTurnId: current.id, local: await context.track(current) };
  let runningTurnId: string | undefined;
  try {
    runningTurnId = await context.elsewhere(() => context.turnEvents.runningTurnId(session.id));
  } catch (error) {
    // `bestEffort`: the journal's view when the bus cannot answer (a page still loads while Redis is away).
    if (!options.bestEffort) throw error;
  }
  if (runningTurnId === undefined) return { turns };
  return { turns: turns.map((turn) => (turn.id === runningTurnId ? runningCopy(turn) : turn)), runningTurnId };
}

function runningCopy(turn: TurnRecord): TurnRecord {
  if (!isUnfinished(turn.status)) return turn;
  const { resumable: _resumable, ...rest } = turn;
  return { ...rest, status: "running" };
}
