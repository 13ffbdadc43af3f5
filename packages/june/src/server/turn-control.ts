import { TurnEndedError } from "../chat/errors.js";
import { errorResponse, HttpError } from "./http-error.js";
import type { ServedTurn, TurnControl, TurnControlReply } from "./turn-event-bus.js";
import type { LocalTurn } from "./turn-registry.js";

const served = new WeakMap<LocalTurn, ServedTurn>();

/** The `ServedTurn` view of a turn this process runs (one per `LocalTurn`). */
export function servedTurnOf(live: LocalTurn): ServedTurn {
  let turn = served.get(live);
  if (!turn) {
    turn = {
      get id() {
        return live.id;
      },
      get sessionId() {
        return live.sessionId;
      },
      read: (from, signal) => live.read(from, signal),
      control: (command) => applyTurnControl(live, command),
    };
    served.set(live, turn);
  }
  return turn;
}

/**
 * Applies a command to a turn this process runs and answers as the route does: `{ ok: true }` (200), or the
 * error's status and JSON body (409 for a decided or unknown approval, or a turn that ended; 400 or 422 for a
 * steer the turn refuses). Never throws.
 */
export async function applyTurnControl(live: LocalTurn, command: TurnControl): Promise<TurnControlReply> {
  try {
    await apply(live, command);
    return { status: 200, body: { ok: true } };
  } catch (error) {
    const response = errorResponse(error);
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }
}

async function apply(live: LocalTurn, command: TurnControl): Promise<void> {
  // An ended turn is no longer held (only its events are): it decides nothing, as the turn itself would not.
  const turn = live.turn;
  switch (command.type) {
    case "approve":
      return decided(turn?.approve(command.approvalId, command.remember ? { remember: command.remember } : undefined) ?? false, live, command.approvalId);
    case "deny":
      return decided(turn?.deny(command.approvalId, command.reason) ?? false, live, command.approvalId);
    case "cancel":
      if (!turn || turn.status !== "running") throw new HttpError(409, `Turn "${live.id}" has already ended`);
      turn.cancel();
      return;
    case "steer":
      if (!turn) throw new TurnEndedError(live.id);
      try {
        await turn.steer(command.input);
      } catch (error) {
        if (error instanceof TypeError || error instanceof RangeError) throw new HttpError(400, error.message, { cause: error });
        throw error;
      }
      return;
    default: {
      const unreachable: never = command;
      throw new HttpError(400, `Unknown turn command ${JSON.stringify(unreachable)}`);
    }
  }
}

function decided(ok: boolean, live: LocalTurn, approvalId: string): void {
  if (!ok) throw new HttpError(409, `No pending approval "${approvalId}" in turn "${live.id}" (unknown, withdrawn or already decided)`);
}
