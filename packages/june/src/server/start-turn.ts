import type { Turn } from "../chat/types.js";
import type { HandlerContext } from "./handler-context.js";
import { withInputErrors } from "./http-error.js";
import { turnEventsResponse } from "./sse.js";
import { inRequestTrace } from "../telemetry/request-trace.js";

/**
 * Starts a turn (`session.send`, `regenerate` or `edit`) and answers with its events as Server-Sent Events,
 * from the first. The turn is tracked (and published to other processes) first, so it can be rejoined with
 * `GET /turns/:id/events` and controlled; a client that disconnects never cancels it. Bad input from `start`
 * (`TypeError`, `RangeError`) is a 400. A `traceparent` header makes the turn's span continue that trace.
 */
export async function startTurnResponse(request: Request, context: HandlerContext, start: () => Turn): Promise<Response> {
  const turn = await withInputErrors(() => inRequestTrace(request, start));
  const live = await context.track(turn);
  return turnEventsResponse(live, { from: 0, signal: request.signal, keepAliveMs: context.keepAliveMs });
}
