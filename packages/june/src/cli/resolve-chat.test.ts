import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createFakeIO } from "./__fixtures__/fake-io.js";
import { resolveChat } from "./resolve-chat.js";

const dir = mkdtempSync(join(tmpdir(), "june-resolve-chat-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function module(name: string, source: string): string {
  writeFileSync(join(dir, name), source);
  return name;
}

// Plain `.mjs` modules with duck-typed exports: a factory records what it was called with on globalThis.
const factory = module(
  "factory.mjs",
  `export default (options) => {
  (globalThis.__factoryCalls ??= []).push(options);
  return { id: options.model ? "on " + options.model.provider + ":" + options.model.modelId : "own", respond() {} };
};
`,
);
const plainResponder = module("responder.mjs", "export default { id: 'plain', respond() {} };\n");
const plainChat = module(
  "chat.mjs",
  "export default { responder: { respond() {} }, createSession() {}, openSession() {}, listSessions() {} };\n",
);
const chatFactory = module(
  "chat-factory.mjs",
  "export default () => ({ responder: { respond() {} }, createSession() {}, openSession() {}, listSessions() {} });\n",
);

const calls = () => ((globalThis as { __factoryCalls?: unknown[] }).__factoryCalls ??= []);
const openai = { OPENAI_API_KEY: "sk-test" };

describe("resolveChat", () => {
  it("calls a factory with the --model model and makes its Responder a chat in --store", async () => {
    const io = createFakeIO({ cwd: dir, env: openai });
    const resolved = await resolveChat({ io, file: factory, model: "openai:gpt-5-mini", store: "sessions", command: "ask" });
    expect(resolved.chat.responder.id).toBe("on openai.responses:gpt-5-mini");
    expect(resolved.label).toBe("factory.mjs on openai:gpt-5-mini");
    expect(resolved.storeDir).toBe(join(dir, "sessions"));
  });

  it("calls a factory with {} when no model is named, and with JUNE_MODEL when it is set", async () => {
    calls().length = 0;
    const own = await resolveChat({ io: createFakeIO({ cwd: dir }), file: factory, command: "chat" });
    expect(own.chat.responder.id).toBe("own");
    expect(own.label).toBe("factory.mjs");
    expect(calls()[0]).toEqual({});
    const io = createFakeIO({ cwd: dir, env: { JUNE_MODEL: "ollama:llama3.2", OLLAMA_HOST: "10.0.0.5:11434" } });
    const fromEnv = await resolveChat({ io, file: factory, command: "chat" });
    expect(fromEnv.chat.responder.id).toBe("on ollama.chat:llama3.2");
  });

  it("refuses --model with a module that exports a Chat or a Responder, saying how to fix it", async () => {
    const io = createFakeIO({ cwd: dir, env: openai });
    await expect(resolveChat({ io, file: plainChat, model: "openai:gpt-5-mini", command: "ask" })).rejects.toMatchObject({
      name: "CliUsageError",
      message: "chat.mjs exports a Chat, so --model cannot reach it: export a function ({ model }) => createChat(...) instead",
    });
    await expect(resolveChat({ io, file: plainResponder, model: "openai:gpt-5-mini", command: "ask" })).rejects.toThrow(
      "responder.mjs exports a Responder, so --model cannot reach it: export a function ({ model }) => agentResponder(...) instead",
    );
    // JUNE_MODEL is the default for every command, not a request aimed at this module: it is ignored.
    const withEnv = createFakeIO({ cwd: dir, env: { JUNE_MODEL: "openai:gpt-5-mini" } });
    expect((await resolveChat({ io: withEnv, file: plainResponder, command: "ask" })).chat.responder.id).toBe("plain");
    await expect(
      resolveChat({ io: withEnv, file: plainResponder, baseUrl: "http://127.0.0.1:1/v1", command: "ask" }),
    ).rejects.toThrow("responder.mjs exports a Responder, so --base-url cannot reach it");
  });

  it("refuses --base-url with no model, and --store with a factory that makes a Chat", async () => {
    const io = createFakeIO({ cwd: dir });
    await expect(resolveChat({ io, file: factory, baseUrl: "http://127.0.0.1:1/v1", command: "ask" })).rejects.toThrow(
      "--base-url applies to a model: pass --model PROVIDER:ID too (or set JUNE_MODEL)",
    );
    await expect(resolveChat({ io, file: chatFactory, store: "x", command: "ask" })).rejects.toThrow(
      "--store applies only to a Responder or a --model chat: chat-factory.mjs makes a Chat with its own store",
    );
    expect((await resolveChat({ io, file: chatFactory, command: "ask" })).storeDir).toBeUndefined();
  });

  it("reports a missing key for the factory's model as a configuration error", async () => {
    await expect(
      resolveChat({ io: createFakeIO({ cwd: dir }), file: factory, model: "anthropic:claude-sonnet-4-5", command: "ask" }),
    ).rejects.toMatchObject({ name: "CliConfigError", envVar: "ANTHROPIC_API_KEY" });
  });
});
