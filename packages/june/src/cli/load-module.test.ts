import { describe, expect, it } from "vitest";
import { createChat } from "../chat/create-chat.js";
import { memoryStore } from "../stores/memory-store.js";
import { scriptedModel } from "../testing/scripted-model.js";
import { firstLine, importModule, isChat, isResponder } from "./load-module.js";

describe("load-module", () => {
  it("tells a Chat from a Responder by shape", () => {
    const chat = createChat({ model: scriptedModel("hi"), store: memoryStore() });
    expect(isChat(chat)).toBe(true);
    expect(isResponder(chat)).toBe(false);
    expect(isResponder(chat.responder)).toBe(true);
    for (const value of [null, 42, "x", {}, () => {}]) {
      expect(isChat(value)).toBe(false);
      expect(isResponder(value)).toBe(false);
    }
  });

  it("keeps one informative line of a load error", () => {
    const esbuild = new Error('Transform failed with 1 error:\n/tmp/x/broken.tsx:3:14: ERROR: Unexpected ";"');
    expect(firstLine(esbuild)).toBe('Unexpected ";" (broken.tsx:3:14)');
    expect(firstLine(new SyntaxError("Unexpected token\n    at foo"))).toBe("SyntaxError: Unexpected token");
    expect(firstLine(new Error("Cannot find package 'nope' imported from /tmp/a.ts"))).toBe(
      "Cannot find package 'nope' imported from /tmp/a.ts",
    );
    expect(firstLine("thrown string")).toBe("thrown string");
  });

  it("refuses a wrong extension and a missing file before loading anything", async () => {
    await expect(importModule({ file: "notes.txt", cwd: "/" })).rejects.toThrow(
      "notes.txt: expected a .ts, .tsx, .mts, .js, .jsx, .mjs module",
    );
    await expect(importModule({ file: "nowhere/chat.tsx", cwd: "/" })).rejects.toMatchObject({
      name: "ModuleLoadError",
      file: "nowhere/chat.tsx",
      message: "nowhere/chat.tsx: no such file",
    });
  });
});
