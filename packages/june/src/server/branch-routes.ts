import { rejectUnknownFields, requireString } from "./body.js";
import type { HandlerContext } from "./handler-context.js";
import { withInputErrors } from "./http-error.js";
import { Router } from "./router.js";
import { startTurnResponse } from "./start-turn.js";

/**
 * The routes of a session's branches (mounted under `/sessions`; see `Session.regenerate`, `edit`,
 * `branches`, `checkout`):
 *
 * - `POST /:id/turns/:turnId/regenerate`: answers the turn's input again on a new branch; the new turn's
 *   events as Server-Sent Events, like `POST /sessions/:id/turns`.
 * - `POST /:id/turns/:turnId/edit` `{ input }`: a new input in the turn's place, likewise.
 * - `GET /:id/turns/:turnId/branches`: `{ turns }`, the alternatives at the turn, oldest first.
 * - `POST /:id/checkout` `{ turnId }`: makes the branch through the turn current; `{ turns }`, the current
 *   branch's turns.
 *
 * An unknown session or turn is a 404, a turn running in the session a 409, a bad body a 400.
 */
export function branchRoutes(context: HandlerContext): Router {
  const { chat } = context;
  return new Router()
    .on("POST", "/:id/turns/:turnId/regenerate", async ({ request, params }) => {
      rejectUnknownFields(await context.body(request, { allowEmpty: true }), []);
      const session = await chat.openSession(params.id);
      return startTurnResponse(request, context, () => session.regenerate(params.turnId));
    })
    .on("POST", "/:id/turns/:turnId/edit", async ({ request, params }) => {
      const fields = await context.body(request);
      rejectUnknownFields(fields, ["input"]);
      const input = context.input(fields);
      const session = await chat.openSession(params.id);
      return startTurnResponse(request, context, () => session.edit(params.turnId, input));
    })
    .on("GET", "/:id/turns/:turnId/branches", async ({ params }) => {
      const session = await chat.openSession(params.id);
      const turns = await withInputErrors(() => session.branches(params.turnId));
      return context.json(200, { turns });
    })
    .on("POST", "/:id/checkout", async ({ request, params }) => {
      const fields = await context.body(request);
      rejectUnknownFields(fields, ["turnId"]);
      const turnId = requireString(fields, "turnId", { nonEmpty: true });
      const session = await chat.openSession(params.id);
      const turns = await withInputErrors(() => session.checkout(turnId));
      return context.json(200, { id: session.id, turns });
    });
}
