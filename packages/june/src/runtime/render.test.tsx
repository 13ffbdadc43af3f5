import { jsonSchema, tool } from "ai";
import { describe, expect, it } from "vitest";
import { Agent, Catch, RenderError, RunError, Step, Tool, start, type JuneElement } from "june";
import { scriptedModel } from "june/testing";

const echo = tool({
  description: "echo",
  inputSchema: jsonSchema<{ text: string }>({ type: "object", properties: { text: { type: "string" } } }),
  execute: async ({ text }) => text,
});

function renderError(run: () => unknown): RenderError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(RenderError);
    return error as RenderError;
  }
  throw new Error("expected start() to throw a RenderError");
}

describe("render errors at start()", () => {
  it("rejects a duplicate step id, naming the step; nothing runs", () => {
    const model = scriptedModel(["a", "b"]);
    const error = renderError(() =>
      start(
        <Agent model={model}>
          <Step id="same" prompt="x" />
          <Step id="same" prompt="y" />
        </Agent>,
      ),
    );
    expect(error.element).toBe('<Step id="same">');
    expect(error.message).toMatch(/duplicate step id "same"/);
    expect(model.callCount).toBe(0);
  });

  it("rejects a Step with no model in scope, unless it has `run`", () => {
    const error = renderError(() => start(<Step id="lonely" prompt="x" />));
    expect(error.element).toBe('<Step id="lonely">');
    expect(error.message).toMatch(/no model in scope/);
    expect(() => start(<Step id="fn" run={() => 1} />)).not.toThrow();
  });

  it("rejects a Tool without name or value", () => {
    const model = scriptedModel(["a"]);
    // @ts-expect-error: `name` is required
    const noName = <Tool value={echo} />;
    // @ts-expect-error: `value` is required
    const noValue = <Tool name="echo" />;
    expect(renderError(() => start(<Agent model={model}>{noName}</Agent>)).message).toMatch(/`name`/);
    expect(renderError(() => start(<Agent model={model}>{noValue}</Agent>)).element).toBe('<Tool name="echo">');
    expect(model.callCount).toBe(0);
  });

  it("rejects an unknown element type, naming it", () => {
    const model = scriptedModel(["a"]);
    const div = { $$typeof: Symbol.for("june.element"), type: "div", props: {}, key: undefined } as JuneElement;
    const error = renderError(() => start(<Agent model={model}>{div}</Agent>));
    expect(error.element).toBe("<div>");
    expect(error.message).toMatch(/unknown element type/);
  });

  it("rejects non-Tool children of a Step and text children", () => {
    const model = scriptedModel(["a"]);
    expect(
      renderError(() =>
        start(
          <Agent model={model}>
            <Step id="s" prompt="x">
              <Step id="inner" prompt="y" />
            </Step>
          </Agent>,
        ),
      ).message,
    ).toMatch(/only children are <Tool>s/);
    // @ts-expect-error: text is not a workflow child
    const text = <Agent model={model}>stray text</Agent>;
    expect(renderError(() => start(text)).element).toBe("text");
  });

  it("calls function components and names them when they fail", () => {
    const model = scriptedModel(["a"]);
    function Broken(): JuneElement {
      throw new Error("nope");
    }
    const error = renderError(() => start(<Agent model={model}><Broken /></Agent>));
    expect(error.element).toBe("<Broken>");
    expect(error.cause).toBeInstanceOf(Error);
  });

  it("validates a Catch's element fallback up front", () => {
    const model = scriptedModel(["a"]);
    const error = renderError(() =>
      start(
        <Agent model={model}>
          <Catch fallback={<Step id="a" prompt="again" />}>
            <Step id="a" prompt="x" />
          </Catch>
        </Agent>,
      ),
    );
    expect(error.message).toMatch(/duplicate step id "a"/);
  });
});

describe("render errors while running", () => {
  it("fails the run with a RenderError when a render function returns a faulty tree; Catch does not swallow it", async () => {
    const model = scriptedModel(["first"]);
    const run = start(
      <Agent model={model}>
        <Step id="first" prompt="x" />
        <Catch fallback={<Step id="fallback" run={() => "caught"} />}>
          {() => <Step id="first" prompt="again" />}
        </Catch>
      </Agent>,
    );
    const error = await run.result.then(
      () => {
        throw new Error("expected the run to fail");
      },
      (e: unknown) => e as RunError,
    );
    expect(error).toBeInstanceOf(RunError);
    expect(error.cause).toBeInstanceOf(RenderError);
    expect((error.cause as RenderError).element).toBe('<Step id="first">');
    expect(error.result.status).toBe("error");
    expect(error.result.steps).toEqual({ first: "first" });
    expect(model.callCount).toBe(1);
  });

  it("fails the run when a render function returns a Step with no model in scope", async () => {
    const run = start(<>{() => <Step id="x" prompt="y" />}</>);
    await expect(run.result).rejects.toMatchObject({ cause: { name: "RenderError", element: '<Step id="x">' } });
  });
});
