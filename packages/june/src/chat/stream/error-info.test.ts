import { describe, expect, it } from "vitest";
import { errorInfo, MAX_ERROR_MESSAGE_CHARS } from "./error-info.js";

describe("errorInfo", () => {
  it("keeps the name, masks credentials, the user's patterns and file paths, and cuts long messages", () => {
    const error = new TypeError("key sk-live-0123456789abcdefghijklmn and ACME-7f3a9c2e11 in /home/ann/app/x.ts");
    const summary = errorInfo(error, { redaction: { patterns: [/ACME-[0-9a-f]{10}/] } });
    expect(summary.name).toBe("TypeError");
    expect(summary.message).not.toMatch(/sk-live|ACME-7f|\/home\/ann/);
    expect(Object.keys(summary).sort()).toEqual(["message", "name"]);
    expect(errorInfo(new Error("x".repeat(5000))).message).toHaveLength(MAX_ERROR_MESSAGE_CHARS);
  });

  it("reads an error-like object, and anything else as its String()", () => {
    expect(errorInfo({ name: "ProviderError", message: "rate limited" })).toEqual({ name: "ProviderError", message: "rate limited" });
    expect(errorInfo("boom")).toEqual({ name: "Error", message: "boom" });
    expect(errorInfo({ name: "a name with\nnewlines", message: "m" }).name).toBe("Error");
  });
});
