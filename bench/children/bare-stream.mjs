/** The start-up floor of a model script: one raw `streamText` call with a scripted model, its text to stdout. */
import { streamText } from "ai";
import { scriptedModel } from "june/testing";

const model = scriptedModel({ text: Array.from({ length: 60 }, (_, i) => `word${i} `) });
const result = streamText({ model, prompt: "Deploy the docs to staging" });
for await (const text of result.textStream) process.stdout.write(text);
process.stdout.write("\n");
