import type { Session } from "../chat/types.js";
import type { IndexedTurnStreamEvent } from "../chat/stream/turn-stream-event.js";
import { SessionNotFoundError } from "../stores/errors.js";
import type { HandlerContext } from "./handler-context.js";
import type { SessionAccess } from "./session-access.js";
import { sessionView } from "./session-view.js";
import type { ServedTurn } from "./turn-event-bus.js";
import type { LocalTurn } from "./turn-registry.js";

/**
 * The chat's running turn and its events so far, or `undefined` when none runs. `strict`: a chat that does
 * not exist is a 404, a bus that cannot answer a 503; else both are nothing running.
 */
export async function runningTurn(
  chatId: string,
  access: SessionAccess,
  context: HandlerContext,
  options: { strict?: boolean } = {},
): Promise<{ turn: ServedTurn; events: IndexedTurnStreamEvent[] | undefined } | undefined> {
  let session: Session;
  try {
    // Through the caller's access: another owner's chat is one that does not exist.
    session = await access.open(chatId);
  } catch (error) {
    if (!options.strict && SessionNotFoundError.isInstance(error)) return undefined;
    throw error;
  }
  const view = await sessionView(session, context, { bestEffort: !options.strict });
  if (view.runningTurnId === undefined) return undefined;
  const found = view.local ? undefined : context.find(view.runningTurnId, { running: true });
  const turn = view.local ?? (options.strict ? await found : await found?.catch(() => undefined));
  if (!turn) return undefined;
  return { turn, events: await eventsSoFar(view.local ?? turn.id, context) };
}

/** A running turn's events so far, here or from the bus; `undefined` when they cannot be read now. */
export async function eventsSoFar(turn: LocalTurn | string, context: HandlerContext): Promise<IndexedTurnStreamEvent[] | undefined> {
  if (typeof turn !== "string") return turn.readSoFar(0);
  try {
    const found = await context.find(turn, { running: true });
    return await found?.readSoFar?.(0);
  } catch {
    return undefined;
  }
}
