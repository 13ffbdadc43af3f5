import { redact } from "../redaction/redact.js";
import { readJsonObject, rejectUnknownFields, requireString } from "./body.js";
import type { HandlerContext } from "./create-chat-handler.js";
import { json, withInputErrors } from "./http-error.js";
import type { Router } from "./router.js";
import { startTurnResponse } from "./start-turn.js";

/**
 * The routes of a session's branches (see `Session.regenerate`, `edit`, `branches`, `checkout`):
 *
 * - `POST /sessions/:id/turns/:turnId/regenerate`: answers the turn's input again on a new branch; the new
 *   turn's events as Server-Sent Events, like `POST /sessions/:id/turns`.
 * - `POST /sessions/:id/turns/:turnId/edit` `{ input }`: a new input in the turn's place, likewise.
 * - `GET /sessions/:id/turns/:turnId/branches`: `{ turns }`, the alternatives at the turn, oldest first.
 * - `POST /sessions/:id/checkout` `{ turnId }`: makes the branch through the turn current; `{ turns }`, the
 *   current branch's turns.
 *
 * An unknown session or turn is a 404, a turn running in the session a 409, a bad body a 400.
 */
export function addBranchRoutes(router: Router, context: HandlerContext): Router {
  const { chat } = context;
  const body = (request: Request, allowEmpty = false) => readJsonObject(request, { maxBytes: context.maxBodyBytes, allowEmpty });
  return router
    .on("POST", "/sessions/:id/turns/:turnId/regenerate", async ({ request, params }) => {
      rejectUnknownFields(await body(request, true), []);
      const session = await chat.openSession(params.id);
      return startTurnResponse(request, context, () => session.regenerate(params.turnId));
    })
    .on("POST", "/sessions/:id/turns/:turnId/edit", async ({ request, params }) => {
      const fields = await body(request);
      rejectUnknownFields(fields, ["input"]);
      const input = requireString(fields, "input", { nonEmpty: true, maxChars: context.maxInputChars });
      const session = await chat.openSession(params.id);
      return startTurnResponse(request, context, () => session.edit(params.turnId, input));
    })
    .on("GET", "/sessions/:id/turns/:turnId/branches", async ({ params }) => {
      const session = await chat.openSession(params.id);
      const turns = await withInputErrors(() => session.branches(params.turnId));
      return json(200, redact({ turns }, context.redact));
    })
    .on("POST", "/sessions/:id/checkout", async ({ request, params }) => {
      const fields = await body(request);
      rejectUnknownFields(fields, ["turnId"]);
      const turnId = requireString(fields, "turnId", { nonEmpty: true });
      const session = await chat.openSession(params.id);
      const turns = await withInputErrors(() => session.checkout(turnId));
      return json(200, redact({ id: session.id, turns }, context.redact));
    });
}
