import { redactText } from "june";
import { describe, expect, it } from "vitest";
import { StreamRedactor } from "./stream-redactor.js";

/** Streams `text` in pieces of `size` characters and returns what goes out. */
function stream(text: string, size: number): string[] {
  const redactor = new StreamRedactor();
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(redactor.push(text.slice(i, i + size)));
  out.push(redactor.flush());
  return out;
}

const KEY = "sk-proj-ABCDEFGHIJ0123456789xyz";

describe("StreamRedactor", () => {
  it.each([1, 3, 4, 7])("masks a key written %i characters at a time", (size) => {
    const text = `Use ${KEY} for it, then Authorization: Bearer abcdefghijklmnop123456 and api_key=hunter2secret ok.`;
    const out = stream(text, size).join("");
    expect(out).not.toContain("ABCDEFGHIJ0123456789");
    expect(out).not.toContain("abcdefghijklmnop123456");
    expect(out).not.toContain("hunter2secret");
    expect(out).toBe(redactText(text));
  });

  it.each([1, 3, 5])("masks a key wrapped by a line break, written %i characters at a time", (size) => {
    const text = "key sk-proj-AbCdEfGhIj0123\nKlMnOpQrSt4567UvWx and ghp_AbCdEfGhIjKlMnOp\r\nQrStUvWxYz0123456789\nbye";
    const out = stream(text, size).join("");
    expect(out).not.toContain("KlMnOpQrSt4567UvWx");
    expect(out).not.toContain("QrStUvWxYz0123456789");
    expect(out).toBe(redactText(text));
  });

  it("sends finished words at once and holds only the last one back", () => {
    const redactor = new StreamRedactor();
    expect(redactor.push("Hello wor")).toBe("Hello ");
    expect(redactor.push("ld, how")).toBe("world, ");
    expect(redactor.push(" are you?\n")).toBe("how are you?\n");
    expect(redactor.flush()).toBe("");
  });

  it("holds a word that announces a credential together with the next one", () => {
    const redactor = new StreamRedactor();
    expect(redactor.push("token: Bearer ")).toBe("token: ");
    expect(redactor.push("abcdefghijklmnop123456 done")).toBe("Bearer [redacted] ");
    expect(redactor.flush()).toBe("done");
  });

  it("lets a very long word go once it passes the limit", () => {
    const redactor = new StreamRedactor();
    expect(redactor.push("x".repeat(5_000))).toBe("x".repeat(5_000));
  });
});
