/** Cold start, the AI SDK's own (issue 29, item 4): `import("ai")` and one raw `streamText` turn, its text to stdout. */
import { wordsModel } from "./words-model.mjs";

const { streamText } = await import("ai");
const result = streamText({ model: wordsModel(), prompt: "Deploy the docs to staging" });
for await (const text of result.textStream) process.stdout.write(text);
process.stdout.write("\n");
