import { describe, expect, it } from "vitest";
import { contentValue, safeAttributes, sizeOf } from "./attributes.js";
import { genAiProvider } from "./gen-ai.js";

describe("span attributes", () => {
  it("redacts every string, masks a credential-named key whole, drops undefined", () => {
    expect(
      safeAttributes({
        "ai.request.headers.authorization": "Basic dXNlcjpwYXNz",
        "ai.request.headers.x-api-key": "plain",
        "ai.settings.maxOutputTokens": 5,
        "gen_ai.usage.input_tokens": 3,
        note: "key sk-proj-0123456789abcdefghij here",
        list: ["Bearer abcdefghijklmnop", "fine"],
        gone: undefined,
      }),
    ).toEqual({
      "ai.request.headers.authorization": "[redacted]",
      "ai.request.headers.x-api-key": "[redacted]",
      "ai.settings.maxOutputTokens": 5,
      "gen_ai.usage.input_tokens": 3,
      note: "key [redacted] here",
      list: ["Bearer [redacted]", "fine"],
    });
    expect(safeAttributes({ "june.session.id": "s-1", token: "sk-proj-0123456789abcdefghij" }, { checkKeys: false })).toEqual({
      "june.session.id": "s-1",
      token: "[redacted]",
    });
  });

  it("content is redacted before it is cut, so a cut never leaves part of a key", () => {
    const key = "sk-proj-0123456789abcdefghijKLMNOP";
    const text = contentValue(`${"a".repeat(10)} ${key} ${"b".repeat(50)}`, 20);
    expect(text).toBe(`${"a".repeat(10)} [redacted…[${10 + 1 + 10 + 1 + 50 - 20} more chars]`);
    expect(text).not.toContain("sk-proj");
    expect(contentValue({ password: "hunter2", note: "ok" }, 100)).toBe('{"password":"[redacted]","note":"ok"}');
    const circular: Record<string, unknown> = { a: 1 };
    circular.self = circular;
    expect(contentValue(circular, 100)).toBe('{"a":1,"self":"[circular]"}');
    expect(sizeOf({ a: 1 })).toBe(7);
    expect(sizeOf(undefined)).toBeUndefined();
  });

  it("names providers as the GenAI conventions do", () => {
    expect(["openai.chat", "openai.responses", "anthropic.messages", "google.generative-ai", "ollama", "mistral.chat"].map(genAiProvider)).toEqual([
      "openai",
      "openai",
      "anthropic",
      "gcp.gemini",
      "ollama",
      "mistral_ai",
    ]);
  });
});
