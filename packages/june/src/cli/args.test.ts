import { describe, expect, it } from "vitest";
import { approvalMode, checkFlags, looksLikeModule, parsePort, splitAskPositionals } from "./args.js";
import { modelArgs, storeArg, turnArgs } from "./commands/shared-args.js";

const args = { file: { type: "positional", required: false }, ...modelArgs, ...storeArg, ...turnArgs } as const;

describe("checkFlags", () => {
  it("accepts known flags, values, aliases, --flag=value and everything after --", () => {
    expect(() =>
      checkFlags(["chat.tsx", "--model", "openai:gpt-5-mini", "--store=dir", "-y", "--json", "--", "--anything"], args, "ask"),
    ).not.toThrow();
    expect(() => checkFlags(["--base-url", "http://x", "--no-json"], args, "ask")).not.toThrow();
  });

  it("refuses an unknown flag, naming it", () => {
    expect(() => checkFlags(["--bogus"], args, "ask")).toThrow(/Unknown option --bogus for "ask"/);
    expect(() => checkFlags(["-x"], args, "ask")).toThrow(/Unknown option -x/);
  });

  it("refuses a string flag without a value and a boolean with one", () => {
    expect(() => checkFlags(["--model"], args, "ask")).toThrow(/--model needs a value/);
    expect(() => checkFlags(["--model", "--json"], args, "ask")).toThrow(/--model needs a value/);
    expect(() => checkFlags(["--store="], args, "ask")).toThrow(/--store needs a value/);
    expect(() => checkFlags(["--json=yes"], args, "ask")).toThrow(/--json takes no value/);
  });
});

describe("splitAskPositionals", () => {
  it("takes the first positional as the module when it has a module extension", () => {
    expect(splitAskPositionals(["chat.tsx", "Deploy", "the", "docs"])).toEqual({ file: "chat.tsx", input: "Deploy the docs" });
    expect(splitAskPositionals(["./bot.mjs", "hi"])).toEqual({ file: "./bot.mjs", input: "hi" });
  });

  it("takes every positional as the input otherwise", () => {
    expect(splitAskPositionals(["What", "is", "June?"])).toEqual({ input: "What is June?" });
    expect(splitAskPositionals(["Explain this: a.b"])).toEqual({ input: "Explain this: a.b" });
  });

  it("refuses an empty input", () => {
    expect(() => splitAskPositionals([])).toThrow(/Nothing to ask/);
    expect(() => splitAskPositionals(["chat.tsx"])).toThrow(/Nothing to ask.*chat\.tsx/);
    expect(() => splitAskPositionals(["  "])).toThrow(/Nothing to ask/);
  });
});

describe("looksLikeModule", () => {
  it("knows the module extensions", () => {
    for (const file of ["a.ts", "a.tsx", "a.js", "a.mjs", "A.TSX", "dir/a.mts"]) expect(looksLikeModule(file)).toBe(true);
    for (const file of ["a.json", "hello", "a.md", "ts"]) expect(looksLikeModule(file)).toBe(false);
  });
});

describe("approvalMode and parsePort", () => {
  it("reads --yes and --deny, and refuses both", () => {
    expect(approvalMode({})).toBe("ask");
    expect(approvalMode({ yes: true })).toBe("yes");
    expect(approvalMode({ deny: true })).toBe("deny");
    expect(() => approvalMode({ yes: true, deny: true })).toThrow(/not both/);
  });

  it("parses ports", () => {
    expect(parsePort(undefined)).toBeUndefined();
    expect(parsePort("0")).toBe(0);
    expect(parsePort("4173")).toBe(4173);
    for (const bad of ["-1", "65536", "12a", "", "1.5"]) expect(() => parsePort(bad)).toThrow(/Bad --port/);
  });
});
