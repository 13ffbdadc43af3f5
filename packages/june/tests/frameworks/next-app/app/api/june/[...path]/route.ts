// The docs/server.md recipe: every route of the chat handler under /api/june, with no next.config.
import { createChat } from "june/chat";
import { createChatHandler } from "june/server";
import { openai } from "june/sdk/openai";
import { scriptedModel } from "june/testing";

const chat = createChat({
  // A real provider when a key is set; the scripted model keeps the test offline.
  model: process.env.OPENAI_API_KEY ? openai("gpt-5-mini") : scriptedModel(() => "Hello from Next.js."),
});
const handler = createChatHandler(chat, { basePath: "/api/june" });

export const dynamic = "force-dynamic";
export { handler as DELETE, handler as GET, handler as OPTIONS, handler as POST };
