import type { Session } from "../chat/types.js";
import type { ListSessionsOptions } from "../stores/types.js";
import { type JsonObject, optionalObject, optionalString, rejectUnknownFields, requireString } from "./body.js";
import { pendingApprovalsOf } from "./durable-routes.js";
import type { HandlerContext } from "./handler-context.js";
import { HttpError, withInputErrors } from "./http-error.js";
import { Router } from "./router.js";
import { handleSessionCases } from "./session-cases.js";
import { handleSessionFile } from "./session-files.js";
import { readTurnBody } from "./turn-files.js";
import { startTurnResponse } from "./start-turn.js";
import { sessionView } from "./session-view.js";
import { handleUiMessages } from "./ui-messages-route.js";

const MAX_LIST_LIMIT = 1_000;

/**
 * The routes of sessions (mounted under `/sessions`): `GET|POST /`, `GET|DELETE /:id`, `PUT /:id/title`
 * `{ title }` (renames it), `POST /:id/turns`
 * `{ input, files? }` (JSON or `multipart/form-data`; the turn's events as SSE), `GET /:id/files/:fileId` (a
 * file a turn sent, to the session's owner), `POST /:id/turns/:turnId/feedback`, `GET /:id/cases` and
 * `GET /:chatId/ui-messages` (`[]` for a chat that does not exist yet).
 */
export function sessionRoutes(context: HandlerContext): Router {
  const { chat, registry } = context;
  return new Router()
    .on("GET", "/", async ({ url, access }) => context.json(200, { sessions: await access.list(listOptions(url)) }))
    .on("POST", "/", async ({ request, access }) => {
      const input = await context.body(request, { allowEmpty: true });
      rejectUnknownFields(input, ["id", "metadata"]);
      const id = optionalString(input, "id");
      const metadata = optionalObject(input, "metadata");
      const session = await access.create({ ...(id !== undefined && { id }), ...(metadata && { metadata }) });
      const info = await chat.store.getSession(session.id);
      return context.json(201, info ?? { id: session.id });
    })
    .on("GET", "/:id", async ({ params }) => {
      const session = await chat.openSession(params.id);
      const { turns, runningTurnId } = await sessionView(session, context);
      const pending = await pendingApprovalsOf(session, turns, context.redaction);
      // Served with the session so a client shows "2 / 3" by its turns without asking per turn.
      const branches = await session.alternatives();
      const hasBranches = Object.keys(branches).length > 0;
      return context.json(200, {
        id: session.id,
        turns,
        // What the session spent, every branch included (its turns above are the current branch only).
        cost: await session.cost(),
        ...(runningTurnId !== undefined && { runningTurnId }),
        ...(pending && { pendingApprovals: pending.views, pendingRows: pending.rows }),
        ...(hasBranches && { branches }),
      });
    })
    .on("PUT", "/:id/title", async ({ request, params }) => {
      const fields = await context.body(request);
      rejectUnknownFields(fields, ["title"]);
      const title = requireString(fields, "title", { nonEmpty: true, maxChars: 10_000 });
      const session = await chat.openSession(params.id);
      await withInputErrors(() => session.rename(title));
      const info = await chat.store.getSession(session.id);
      return context.json(200, info ?? { id: session.id });
    })
    .on("DELETE", "/:id", async ({ params }) => {
      const deleted = await chat.deleteSession(params.id);
      if (!deleted) throw new HttpError(404, `No session "${params.id}"`);
      registry.forgetSession(params.id);
      return context.json(200, { deleted: true });
    })
    .on("POST", "/:id/turns", async ({ request, params }) => {
      // JSON `{ input, files?, background? }`, or multipart/form-data with an `input` field and `files` parts.
      const { fields, files } = await readTurnBody(request, context);
      rejectUnknownFields(fields, ["input", "background"]);
      const background = fields.background;
      if (background !== undefined && typeof background !== "boolean") throw new HttpError(400, `"background" must be true or false, got ${JSON.stringify(background)}`);
      // A message may be files alone.
      const text = files.length > 0 && (fields.input === undefined || fields.input === "") ? "" : context.input(fields);
      const session = await chat.openSession(params.id);
      if (background) {
        // In the background: queued for a worker (docs/workers.md), answered at once with the turn's id. A queued
        // turn carries its text in the job: files go with a turn that runs in the request.
        if (files.length > 0) throw new HttpError(400, "a background turn takes text only: send its files without \"background\"");
        return context.json(202, { sessionId: session.id, ...(await withInputErrors(() => session.enqueue(text))) });
      }
      return startTurnResponse(request, context, () => session.send(files.length > 0 ? { text, files } : text));
    })
    // `:chatId`, checked by the route itself: another owner's file is the same 404 as a missing one.
    .on("GET", "/:chatId/files/:fileId", (route) => handleSessionFile(route))
    .on("POST", "/:id/turns/:turnId/feedback", async ({ request, params }) => {
      const fields = await context.body(request);
      rejectUnknownFields(fields, ["score", "comment", "tags"]);
      const feedback = feedbackFields(fields);
      const session = await chat.openSession(params.id);
      const give = (session as Session & { feedback?: (turnId: string, feedback: unknown) => unknown }).feedback;
      if (typeof give !== "function") throw new HttpError(501, "This chat's sessions do not take feedback");
      await withInputErrors(() => give.call(session, params.turnId, feedback));
      return context.json(200, { ok: true });
    })
    .on("GET", "/:id/cases", (route) => handleSessionCases(route, context))
    // `:chatId`: a `useChat` chat's, which may not exist yet (answered as no messages, see handleUiMessages).
    .on("GET", "/:chatId/ui-messages", (route) => handleUiMessages(route, context));
}

function listOptions(url: URL): ListSessionsOptions {
  const options: ListSessionsOptions = {};
  const limit = url.searchParams.get("limit");
  if (limit !== null) {
    const n = Number(limit);
    if (!Number.isInteger(n) || n < 1 || n > MAX_LIST_LIMIT) {
      throw new HttpError(400, `"limit" must be an integer from 1 to ${MAX_LIST_LIMIT}, got "${limit.slice(0, 32)}"`);
    }
    options.limit = n;
  }
  const before = url.searchParams.get("before");
  if (before !== null) {
    if (Number.isNaN(Date.parse(before))) throw new HttpError(400, `"before" must be an ISO time, got "${before.slice(0, 64)}"`);
    options.before = before;
  }
  return options;
}

function feedbackFields(fields: JsonObject): { score: number; comment?: string; tags?: string[] } {
  const score = fields.score;
  if (typeof score !== "number" || !Number.isFinite(score)) throw new HttpError(400, `"score" must be a number`);
  const feedback: { score: number; comment?: string; tags?: string[] } = { score };
  const comment = optionalString(fields, "comment", { maxChars: 10_000 });
  if (comment !== undefined) feedback.comment = comment;
  const tags = fields.tags;
  if (tags !== undefined && tags !== null) {
    if (!Array.isArray(tags) || !tags.every((tag) => typeof tag === "string")) throw new HttpError(400, `"tags" must be an array of strings`);
    feedback.tags = tags;
  }
  return feedback;
}
