import { jsonSchema, tool, type LanguageModel } from "ai";
import { describe, expect, it } from "vitest";
import { Agent, Catch, Fragment, Parallel, Step, Tool, type JuneElement } from "june";
import { jsx, jsxs } from "june/jsx-runtime";
import { jsxDEV } from "june/jsx-dev-runtime";
import { scriptedModel } from "june/testing";
import { ELEMENT, isElement } from "./element.js";

const model: LanguageModel = scriptedModel(["x"]);
const search = tool({
  inputSchema: jsonSchema<{ q: string }>({ type: "object", properties: { q: { type: "string" } } }),
  execute: async ({ q }) => q,
});

describe("the JSX runtime", () => {
  it("makes frozen elements with frozen props", () => {
    const element = (
      <Agent model={model} instructions="hi">
        <Step id="a" prompt="x" />
      </Agent>
    ) as JuneElement;
    expect(isElement(element)).toBe(true);
    expect(element.$$typeof).toBe(ELEMENT);
    expect(element.type).toBe(Agent);
    expect(Object.isFrozen(element)).toBe(true);
    expect(Object.isFrozen(element.props)).toBe(true);
    expect(() => {
      (element.props as { instructions: string }).instructions = "changed";
    }).toThrow(TypeError);
    expect((element.props.children as JuneElement).props).toEqual({ id: "a", prompt: "x" });
  });

  it("groups children with Fragment and keeps them in order", () => {
    const element = (
      <>
        <Step id="a" run={() => 1} />
        <Step id="b" run={() => 2} />
      </>
    ) as JuneElement;
    expect(element.type).toBe(Fragment);
    const children = element.props.children as JuneElement[];
    expect(children.map((child) => child.props.id)).toEqual(["a", "b"]);
  });

  it("jsx, jsxs and jsxDEV build the same element; keys become strings", () => {
    const a = jsx(Step, { id: "a", run: () => 1 }, 1 as never);
    const b = jsxs(Step, { id: "a", run: () => 1 }, "1");
    const c = jsxDEV(Step, { id: "a", run: () => 1 }, "1");
    for (const element of [a, b, c]) {
      expect(element.type).toBe(Step);
      expect(element.key).toBe("1");
    }
    expect(jsx(Step, { id: "a" }).key).toBeUndefined();
  });

  it("type-checks the props of the built-in components", () => {
    const elements = [
      <Agent model={model} temperature={0.2} maxOutputTokens={10} providerOptions={{ openai: { store: false } }}>
        <Tool name="search" value={search} />
        <Step id="s" prompt={(ctx) => String(ctx.steps.previous)} maxSteps={3} timeout={1000} stream />
        <Parallel concurrency={2}>
          <Step id="p" run={(ctx) => ctx.runId} />
        </Parallel>
        <Catch fallback={(error) => <Step id="f" run={() => String(error)} />}>
          {(ctx) => (ctx.steps.s ? <Step id="t" prompt="x" /> : null)}
        </Catch>
      </Agent>,
      // @ts-expect-error: an Agent needs a model
      <Agent instructions="no model" />,
      // @ts-expect-error: a Step needs an id
      <Step prompt="x" />,
      // @ts-expect-error: maxSteps is a number
      <Step id="x" prompt="x" maxSteps="3" />,
      // @ts-expect-error: a Tool's value is an AI SDK tool
      <Tool name="t" value="not a tool" />,
      // @ts-expect-error: Parallel has no `order` prop
      <Parallel order="random" />,
      // @ts-expect-error: a Catch needs a fallback
      <Catch>
        <Step id="c" run={() => 1} />
      </Catch>,
    ];
    expect(elements.every(isElement)).toBe(true);
  });
});
