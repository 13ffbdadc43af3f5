import { streamText } from "ai";
import { describe, expect, it } from "vitest";
import { scriptedModel } from "./scripted-model.js";

describe("scriptedModel", () => {
  it("streams each delta through the real streamText and records the call", async () => {
    const model = scriptedModel([{ text: ["Hel", "lo"], usage: { inputTokens: 3, outputTokens: 2 } }]);
    const result = streamText({ model, prompt: "hi" });
    const deltas: string[] = [];
    for await (const part of result.fullStream) if (part.type === "text-delta") deltas.push(part.text);
    expect(deltas).toEqual(["Hel", "lo"]);
    expect((await result.usage).totalTokens).toBe(5);
    expect(model.doStreamCalls).toHaveLength(1);
    expect(model.callCount).toBe(1);
  });

  it("fails a call the script does not provide", async () => {
    const model = scriptedModel("only one");
    await streamText({ model, prompt: "a" }).consumeStream();
    const result = streamText({ model, prompt: "b", maxRetries: 0 });
    const errors: unknown[] = [];
    for await (const part of result.fullStream) if (part.type === "error") errors.push(part.error);
    expect(String(errors[0])).toMatch(/no script entry for call 2/);
  });

  it("streams an error part mid-stream", async () => {
    const model = scriptedModel({ text: ["partial"], error: "boom" });
    const parts: string[] = [];
    for await (const part of streamText({ model, prompt: "x" }).fullStream) parts.push(part.type);
    expect(parts).toContain("text-delta");
    expect(parts).toContain("error");
  });

  it("stops when the request is aborted", async () => {
    const model = scriptedModel({ text: ["a", "b", "c"], delay: 50 });
    const controller = new AbortController();
    const result = streamText({ model, prompt: "x", abortSignal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    const types: string[] = [];
    for await (const part of result.fullStream) types.push(part.type);
    expect(types).not.toContain("text-delta");
  });
});
