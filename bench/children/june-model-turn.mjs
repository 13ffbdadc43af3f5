/**
 * Cold start, June's (issue 29, item 4): `import("june/chat")` and one turn of a model chat (sessions in memory) on
 * the model `ai-sdk-turn.mjs` streams, its text to stdout. A copy of this file beside another build's
 * `node_modules/june` runs that build (`tools/ab-startup.mjs`).
 */
import { wordsModel } from "./words-model.mjs";

const { createChat } = await import("june/chat");
const session = await createChat({ model: wordsModel() }).createSession();
for await (const event of session.send("Deploy the docs to staging")) {
  if (event.type === "text-delta") process.stdout.write(event.text);
}
process.stdout.write("\n");
