import type { Session, TurnCommand } from "../chat/types.js";
import { ApprovalNotPendingError, TurnEndedError } from "../chat/errors.js";
import type { JsonObject } from "./body.js";
import type { HandlerContext } from "./handler-context.js";
import { HttpError } from "./http-error.js";
import { resumeServed } from "./turn-control.js";
import type { ServedTurn } from "./turn-event-bus.js";
import { approvalResponses, questionAnswers, shownTools } from "./ui-chat-request.js";
import { uiStream } from "./ui-stream.js";
import { sendsTrace } from "./ui-trace-part.js";
import { uiSend } from "./ui-asides.js";

/**
 * The client answered approvals (`addToolApprovalResponse`) and resent the assistant message: each answer
 * goes to the turn through the same control as every route (`ServedTurn.control`), so it reaches the turn
 * in whichever process runs it, and the same message continues from where the client's copy of it ends.
 */
export async function continueAfterApprovals(
  session: Session,
  message: JsonObject,
  context: HandlerContext,
  options: { signal: AbortSignal; cancelOnDisconnect: boolean },
): Promise<Response> {
  const responses = approvalResponses(message);
  const answers = questionAnswers(message);
  if (responses.length === 0 && answers.length === 0) throw new HttpError(400, "The last message is the assistant's but holds no tool approval responses");
  // The assistant message is named after its turn; a client that renamed it still means the session's latest.
  const messageId = typeof message.id === "string" ? message.id : undefined;
  const turn = await approvalTarget(session, messageId, context);
  if (!turn || turn.sessionId !== session.id) throw new HttpError(409, `No turn of chat "${session.id}" is waiting for these approvals`);
  // What each request showed the client: a part sent back with another input was edited before approving.
  const shown = new Map<string, string>();
  for (const { event } of (await turn.readSoFar?.(0)) ?? []) {
    if (event.type === "approval-request") shown.set(event.request.id, JSON.stringify(event.request.inputValue));
  }
  const commands: TurnCommand[] = [
    ...responses.map((response): TurnCommand => {
      const before = shown.get(response.approvalId);
      const edited = response.approved && response.input !== undefined && before !== undefined && JSON.stringify(response.input) !== before;
      return response.approved
        ? { type: "approve", approvalId: response.approvalId, ...(edited && { input: response.input }) }
        : { type: "deny", approvalId: response.approvalId, ...(response.reason !== undefined && { reason: response.reason }) };
    }),
    ...answers.map((answer): TurnCommand => ({ type: "answer", requestId: answer.requestId, value: answer.value })),
  ];
  for (const command of commands) {
    try {
      await turn.control(command);
    } catch (error) {
      // The client resends every answer it holds: one routed by an earlier request, or a turn that ended
      // since, is not this request's failure. What the turn did then is in its events.
      if (!ApprovalNotPendingError.isInstance(error) && !TurnEndedError.isInstance(error)) throw error;
    }
  }
  return uiStream(turn, {
    ...options,
    ...(messageId !== undefined && { messageId }),
    tools: shownTools(message),
    redaction: context.redaction,
    trace: sendsTrace(context),
    send: uiSend(context.uiChat),
  });
}

/**
 * The turn the client's approval answers are for: the message's turn running in any process; else, when it
 * is a durable turn that suspended (or whose process died) and can be resumed, resumed here, as the approve
 * and deny routes do; else the turn as it ended (the answers then change nothing and the client sees its end).
 */
async function approvalTarget(session: Session, messageId: string | undefined, context: HandlerContext): Promise<ServedTurn | undefined> {
  if (messageId !== undefined) {
    // Another session's turn (another user's) is none: answered exactly as an id that does not exist.
    const live = await context.find(messageId, { running: true });
    if (live?.sessionId === session.id) return live;
    const record = (await session.turns()).find((turn) => turn.id === messageId);
    if (record?.resumable) return resumeServed(context, session.id, messageId);
    const ended = await context.find(messageId);
    if (ended?.sessionId === session.id) return ended;
  }
  // A client that renamed the message still means the session's latest.
  const latest = context.registry.latestForSession(session.id);
  return latest && context.find(latest.id);
}
