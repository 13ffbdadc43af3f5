import { NoQueueError } from "../chat/queue/errors.js";
import type { ScheduleInfo } from "../chat/queue/queue.js";
import type { HandlerContext } from "./handler-context.js";
import { Router } from "./router.js";

/**
 * The schedules route (mounted under `/schedules`): `GET /`, the chat's schedules (`chat.schedules()`), read
 * only: `{ schedules: [{ id, kind, cron?, timezone?, runAt?, nextRunAt, session, owner?, input }] }`, times as
 * ISO strings. With `authorize`, only the caller's: a `session: "new"` schedule of its `owner`, or one of a
 * session the caller may use. A chat without a queue has none: `{ schedules: [], queue: false }` (a read, so no
 * error: Studio asks on every load and hides the list then).
 */
export function scheduleRoutes(context: HandlerContext): Router {
  return new Router().on("GET", "/", async ({ access }) => {
    let all: ScheduleInfo[];
    try {
      all = await context.chat.schedules();
    } catch (error) {
      if (NoQueueError.isInstance(error)) return context.json(200, { schedules: [], queue: false });
      throw error;
    }
    const owner = access.principal?.owner;
    if (owner === undefined) return context.json(200, { schedules: all });
    const mine: ScheduleInfo[] = [];
    for (const schedule of all) {
      const sessionOwner = schedule.session === "new" ? schedule.owner : (await context.chat.store.getSession(schedule.session))?.owner;
      if (sessionOwner === owner) mine.push(schedule);
    }
    return context.json(200, { schedules: mine });
  });
}
