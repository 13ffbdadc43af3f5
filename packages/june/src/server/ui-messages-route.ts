import { readUIMessageStream, type UIMessage, type UIMessageChunk } from "ai";
import type { Session } from "../chat/types.js";
import type { IndexedTurnStreamEvent } from "../chat/stream/turn-stream-event.js";
import { toUIMessages } from "../chat/ui-messages.js";
import { entriesOf } from "../chat/internal/session-entries.js";
import type { FileRef } from "../stores/types.js";
import { SessionNotFoundError } from "../stores/errors.js";
import type { HandlerContext } from "./handler-context.js";
import type { RouteContext } from "./router.js";
import { sessionView } from "./session-view.js";
import { UiChunker } from "./ui-chunker.js";
import { eventsSoFar } from "./ui-running-turn.js";
import { sendsTrace } from "./ui-trace-part.js";

/**
 * `GET /sessions/:chatId/ui-messages`: the current branch as `UIMessage[]` (see `toUIMessages`); a running turn
 * shows what its stream showed so far: its text, and its tool parts with their approval state, so a
 * reloaded page can answer an approval and continue the same message. The turn may run in this process or
 * in another one (its events read from the bus up to their end at the time of the request, bounded in
 * time); when the bus cannot answer, the page gets the journal's view. A new `useChat` chat asks before its
 * first message, so a chat that does not exist yet (or, through the caller's access, another owner's, which
 * is answered as one that does not exist) has no messages: `[]`, not a 404.
 */
export async function handleUiMessages({ url, params, access }: RouteContext, context: HandlerContext): Promise<Response> {
  let session: Session;
  try {
    session = await access.open(params.chatId!);
  } catch (error) {
    if (SessionNotFoundError.isInstance(error)) return context.json(200, []);
    throw error;
  }
  const view = await sessionView(session, context, { bestEffort: true });
  // Each file is a `file` part pointing at this handler's own route for it, beside this one.
  const files = new URL(url.pathname.replace(/\/ui-messages\/?$/, "/files/"), url.origin);
  // The journal, for the decisions of ended turns (their tool parts).
  const options = { fileUrl: (file: FileRef) => new URL(encodeURIComponent(file.id), files).href, journal: await entriesOf(session, context.chat.store) };
  const messages = toUIMessages(view.turns, options);
  const runningId = view.runningTurnId;
  if (runningId === undefined || !view.turns.some((turn) => turn.id === runningId)) return context.json(200, messages);
  const events = await eventsSoFar(view.local ?? runningId, context);
  // Ended (or its process gone) while it was read, or its events out of reach: what the journal has now.
  if (events === undefined || events.some(({ event }) => event.type === "turn-end")) return context.json(200, toUIMessages(await session.turns(), { ...options, journal: await entriesOf(session, context.chat.store) }));
  const snapshot = await liveMessage(runningId, events, sendsTrace(context));
  const index = messages.findIndex((message) => message.id === runningId);
  if (index === -1) messages.push(snapshot);
  else messages[index] = snapshot;
  return context.json(200, messages);
}

/** The assistant message a UI stream of the turn's events would have built so far. */
async function liveMessage(turnId: string, events: readonly IndexedTurnStreamEvent[], trace: boolean): Promise<UIMessage> {
  const chunks: UIMessageChunk[] = [];
  const write = (chunk: UIMessageChunk) => chunks.push(chunk);
  const chunker = new UiChunker(new Map(), write);
  // Its trace part too, as the stream left it (the latest rows).
  if (trace) chunker.traceId = turnId;
  write({ type: "start", messageId: turnId });
  write({ type: "start-step" });
  for (const { index, event } of events) chunker.handle(event, index);
  chunker.endText();
  write({ type: "finish-step" });
  write({ type: "finish", finishReason: "tool-calls" });
  const stream = new ReadableStream<UIMessageChunk>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  let message: UIMessage = { id: turnId, role: "assistant", parts: [] };
  for await (const state of readUIMessageStream({ stream })) message = state;
  return { ...message, metadata: { turnStatus: "running" } };
}
