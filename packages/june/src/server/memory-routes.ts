import { rejectUnknownFields, requireString } from "./body.js";
import type { HandlerContext } from "./handler-context.js";
import { HttpError, withInputErrors } from "./http-error.js";
import { Router } from "./router.js";
import type { SessionAccess } from "./session-access.js";

/**
 * The signed-in owner's memory (mounted under `/memory`, `createChat({ memory })`): `GET /` (`{ memory, versions }`:
 * the working memory's latest version, or null, and every version kept, oldest first), `PUT /` `{ text }` (a new
 * version; the same text again is none) and `DELETE /` (`chat.forgetMemory`: the working memory, its versions and
 * the owner's recall index). Only ever the caller's own: the owner is the one `authorize` names, never a parameter.
 */
export function memoryRoutes(context: HandlerContext): Router {
  const { chat } = context;
  const ownerOf = (access: SessionAccess, method: string): string => {
    const owner = access.principal?.owner;
    if (owner === undefined) throw new HttpError(400, `${method} /memory is a signed-in owner's: give createChatHandler an \`authorize\` that returns { owner }`);
    return owner;
  };
  const memoryOf = (owner: string) => {
    try {
      return chat.memory(owner);
    } catch (error) {
      throw new HttpError(404, "This chat keeps no memory (createChat({ memory }))", { cause: error });
    }
  };
  return new Router()
    .on("GET", "/", async ({ access }) => {
      const memory = memoryOf(ownerOf(access, "GET"));
      const [latest, versions] = await Promise.all([memory.get(), memory.versions()]);
      return context.json(200, { memory: latest ?? null, versions });
    })
    .on("PUT", "/", async ({ request, access }) => {
      const memory = memoryOf(ownerOf(access, "PUT"));
      const fields = await context.body(request);
      rejectUnknownFields(fields, ["text"]);
      const text = requireString(fields, "text", { maxChars: 100_000 });
      return context.json(200, { memory: await withInputErrors(() => memory.set(text)) });
    })
    .on("DELETE", "/", async ({ access }) => {
      const owner = ownerOf(access, "DELETE");
      memoryOf(owner);
      await chat.forgetMemory(owner);
      return context.json(200, { deleted: true });
    });
}
