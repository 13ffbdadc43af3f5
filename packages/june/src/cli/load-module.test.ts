import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createChat } from "../chat/create-chat.js";
import type { ChatFactory, ChatFactoryOptions, Responder } from "../chat/types.js";
import { jsx } from "../jsx/jsx-runtime.js";
import { Agent } from "../runtime/components.js";
import { memoryStore } from "../stores/memory-store.js";
import { scriptedModel } from "../testing/scripted-model.js";
import {
  callChatFactory,
  firstLine,
  importModule,
  isChat,
  isResponder,
  juneImportsOf,
  loadChatModule,
  loadRunModule,
  tsconfigInReach,
} from "./load-module.js";

const dir = mkdtempSync(join(tmpdir(), "june-load-module-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Writes a plain `.mjs` module (no June imports, so it loads the same in any runner) and returns its path. */
function module(name: string, source: string): string {
  const path = join(dir, name);
  writeFileSync(path, source);
  return path;
}

const responder: Responder = {
  id: "stub",
  respond: () => {
    throw new Error("not called");
  },
};

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

  it("finds the june entry points a module imports statically, to load them before the module", () => {
    const source = [
      'import { Agent, Step } from "june";',
      "import type { Responder } from 'june/chat';",
      "import {\n  scriptedModel,\n  type ScriptEntry,\n} from \"june/testing\";",
      'export * from "june/learning";',
      'import "june/sdk/openai";',
      'const server = await import("june/server");',
      '// import { x } from "june/store-kit" is a comment, but a scan cannot tell: it only costs time',
      'import bug from "junebug";',
      'import { jsonSchema } from "ai";',
    ].join("\n");
    expect(juneImportsOf(source, "chat.ts")).toEqual([
      "june",
      "june/testing",
      "june/learning",
      "june/sdk/openai",
      "june/store-kit",
    ]);
    expect(juneImportsOf("export default 1;\n", "chat.tsx")).toEqual(["june/jsx-runtime"]);
    expect(juneImportsOf('import { Agent } from "june";\n', "chat.JSX")).toEqual(["june", "june/jsx-runtime"]);
  });

  it("sees a tsconfig.json in the directory or any parent, or TSX_TSCONFIG_PATH", () => {
    const root = mkdtempSync(join(dir, "tsconfig-"));
    const nested = join(root, "a", "b");
    mkdirSync(nested, { recursive: true });
    // The system temp dir has no tsconfig.json above it.
    expect(tsconfigInReach(nested, {})).toBe(false);
    expect(tsconfigInReach(nested, { TSX_TSCONFIG_PATH: "/elsewhere/tsconfig.json" })).toBe(true);
    writeFileSync(join(root, "tsconfig.json"), "{}");
    expect(tsconfigInReach(nested, {})).toBe(true);
    expect(tsconfigInReach(root, {})).toBe(true);
  });

  describe("chat modules", () => {
    it("loads a Responder, a Chat-shaped object and a function (a chat factory), each as its kind", async () => {
      const responderFile = module("responder.mjs", "export default { id: 'r', respond() {} };\n");
      const chatFile = module(
        "chat.mjs",
        "export default { createSession() {}, openSession() {}, listSessions() {} };\n",
      );
      module(
        "factory.mjs",
        "export default async ({ model } = {}) => ({ id: model ? `on ${model.modelId}` : 'own model', respond() {} });\n",
      );
      expect(await loadChatModule({ file: responderFile, cwd: dir })).toMatchObject({ kind: "responder", responder: { id: "r" } });
      expect((await loadChatModule({ file: chatFile, cwd: dir })).kind).toBe("chat");
      const loaded = await loadChatModule({ file: "factory.mjs", cwd: dir });
      expect(loaded.kind).toBe("factory");
      if (loaded.kind !== "factory") return;
      const model = scriptedModel("hi", { modelId: "picked" });
      expect(await callChatFactory({ file: "factory.mjs", factory: loaded.factory, model })).toMatchObject({
        kind: "responder",
        responder: { id: "on picked" },
      });
      expect(await callChatFactory({ file: "factory.mjs", factory: loaded.factory })).toMatchObject({
        kind: "responder",
        responder: { id: "own model" },
      });
    });

    it("calls a factory with { model } when there is one and with {} when there is none", async () => {
      const calls: ChatFactoryOptions[] = [];
      const chat = createChat({ responder, store: memoryStore() });
      const factory: ChatFactory = (options) => {
        calls.push(options);
        return options.model ? responder : chat;
      };
      const model = scriptedModel("hi");
      expect(await callChatFactory({ file: "f.ts", factory, model })).toEqual({ kind: "responder", responder });
      expect(await callChatFactory({ file: "f.ts", factory })).toEqual({ kind: "chat", chat });
      expect(calls).toHaveLength(2);
      expect(calls[0]!.model).toBe(model);
      expect(Object.keys(calls[1]!)).toEqual([]);
    });

    it("names the file and what went wrong when a factory throws, rejects or returns something else", async () => {
      const cases: [ChatFactory, string][] = [
        [
          () => {
            throw new Error("no OPENAI_API_KEY\n    at somewhere");
          },
          "f.ts: the chat factory (its default export) threw: no OPENAI_API_KEY",
        ],
        [async () => Promise.reject(new TypeError("bad")), "f.ts: the chat factory (its default export) threw: TypeError: bad"],
        [
          (() => 42) as unknown as ChatFactory,
          "f.ts: its default export, a function, was called as a chat factory ({ model }) and returned a number; expected a Chat (createChat(...)) or a Responder (an object with respond())",
        ],
        [
          (() => jsx(Agent, { model: scriptedModel("x") })) as unknown as ChatFactory,
          "f.ts: its default export, a function, was called as a chat factory ({ model }) and returned a workflow element; expected a Chat (createChat(...)) or a Responder (an object with respond()) (to run a workflow once, use june run)",
        ],
      ];
      for (const [factory, message] of cases) {
        await expect(callChatFactory({ file: "f.ts", factory })).rejects.toMatchObject({ name: "ModuleLoadError", file: "f.ts", message });
      }
    });

    it("says what a chat module may export when its default export is none of them", async () => {
      const file = module("number.mjs", "export default 42;\n");
      await expect(loadChatModule({ file, cwd: dir })).rejects.toThrow(
        `${file}: the default export is a number; expected a Chat (createChat(...)), a Responder (an object with respond()) or a function ({ model }) => either`,
      );
      const none = module("none.mjs", "export const chat = 1;\n");
      await expect(loadChatModule({ file: none, cwd: dir })).rejects.toThrow(/has no default export; expected a Chat .* or a function \(\{ model \}\) => either$/);
    });
  });

  describe("run modules", () => {
    it("loads a component (which june run gives { input, model }) and refuses anything else", async () => {
      const component = module("component.mjs", "export default ({ input, model }) => ({ input, model });\n");
      const loaded = await loadRunModule({ file: component, cwd: dir });
      expect(loaded.kind).toBe("component");
      if (loaded.kind === "component") expect(loaded.component({ input: "x" })).toEqual({ input: "x", model: undefined });
      const file = module("string.mjs", "export default 'hi';\n");
      await expect(loadRunModule({ file, cwd: dir })).rejects.toThrow(
        `${file}: the default export is a string; expected a workflow element (<Agent>...</Agent>) or a component that takes { input, model }`,
      );
    });
  });
});
