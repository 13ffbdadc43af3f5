import { rejectUnknownFields, requireString } from "./body.js";
import type { HandlerContext } from "./handler-context.js";
import { HttpError, withInputErrors } from "./http-error.js";
import { Router } from "./router.js";
import type { SessionAccess } from "./session-access.js";

/**
 * The signed-in owner's memory (mounted under `/memory`, `createChat({ memory })`): `GET /` (`{ memory, versions }`:
 * the working memory's latest version, or null, and every version kept, oldest first), `PUT /` `{ text }` (a new
 * version; the same text again is none) and `DELETE /` (`chat.forgetMemory`: the working memory, its versions and
 * the owner's recall index). With `authorize`, only ever the caller's own: the owner is the one `authorize` names,
 * and an `?owner=` naming anyone else is refused (403). Without `authorize` (every session is anyone's, as in
 * Studio on this machine) the owner is the `?owner=` query parameter.
 */
export function memoryRoutes(context: HandlerContext): Router {
  const { chat } = context;
  const ownerOf = (access: SessionAccess, request: Request, method: string): string => {
    const asked = new URL(request.url).searchParams.get("owner") ?? undefined;
    const owner = access.principal?.owner;
    if (access.principal !== undefined) {
      if (owner === undefined) throw new HttpError(400, `${method} /memory is a signed-in owner's: give createChatHandler an \`authorize\` that returns { owner }`);
      if (asked !== undefined && asked !== owner) throw new HttpError(403, `${method} /memory: only the signed-in owner's memory, not another's`);
      return owner;
    }
    if (asked === undefined || asked === "") throw new HttpError(400, `${method} /memory needs an owner: ?owner=… (or give createChatHandler an \`authorize\` that returns { owner })`);
    if (asked.length > 200) throw new HttpError(400, `${method} /memory: owner is longer than 200 characters`);
    return asked;
  };
  const memoryOf = (owner: string) => {
    try {
      return chat.memory(owner);
    } catch (error) {
      throw new HttpError(404, "This chat keeps no memory (createChat({ memory }))", { cause: error });
    }
  };
  return new Router()
    .on("GET", "/", async ({ request, access }) => {
      const memory = memoryOf(ownerOf(access, request, "GET"));
      const [latest, versions] = await Promise.all([memory.get(), memory.versions()]);
      return context.json(200, { memory: latest ?? null, versions });
    })
    .on("PUT", "/", async ({ request, access }) => {
      const memory = memoryOf(ownerOf(access, request, "PUT"));
      const fields = await context.body(request);
      rejectUnknownFields(fields, ["text"]);
      const text = requireString(fields, "text", { maxChars: 100_000 });
      return context.json(200, { memory: await withInputErrors(() => memory.set(text)) });
    })
    .on("DELETE", "/", async ({ request, access }) => {
      const owner = ownerOf(access, request, "DELETE");
      memoryOf(owner);
      await chat.forgetMemory(owner);
      return context.json(200, { deleted: true });
    });
}
