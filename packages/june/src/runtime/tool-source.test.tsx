/**
 * The tool-source protocol (issue 36): an element type made by `toolSource()` adds tools to the steps it serves,
 * with its own props check, render-time tools, a per-run session and tools resolved as a step starts; the
 * runtime knows no source by name (`McpTools` and `AskUser` are two of them).
 */
import { jsonSchema, tool } from "ai";
import { describe, expect, it } from "vitest";
import { Agent, AskUser, McpTools, RenderError, RunError, Step, Tool, start, toolSource, type ToolCallNode, type TraceNode } from "june";
import { scriptedModel } from "june/testing";

const echo = (name: string) =>
  tool({ description: name, inputSchema: jsonSchema<{ q?: string }>({ type: "object", properties: { q: { type: "string" } } }), execute: async () => name });

function toolNames(call: { tools?: { name: string }[] }): string[] {
  return (call.tools ?? []).map((t) => t.name).sort();
}

function toolCalls(tree: TraceNode): ToolCallNode[] {
  return [...(tree.kind === "tool-call" ? [tree] : []), ...tree.children.flatMap(toolCalls)];
}

/** A source whose tools come as a step starts, over one session per run; it records what happened. */
function recordingSource() {
  const events: string[] = [];
  const Remote = toolSource<{ name: string }, string, { id: number }>({
    name: "Remote",
    check: (props) => {
      if (typeof props.name !== "string" || props.name === "") throw new TypeError("`name` must be a non-empty string");
      return props.name;
    },
    label: (props) => (typeof props.name === "string" ? `<Remote name="${props.name}">` : undefined),
    open: (run) => {
      events.push(`open ${run.provided.length}`);
      return { id: events.length };
    },
    close: (session) => void events.push(`close ${session.id}`),
    stepTools: ({ levels, session, ctx }) => {
      if (levels.every((names) => names.length === 0)) return undefined;
      events.push(`tools ${levels.map((names) => names.join("+")).join("|")} ${ctx.runId.startsWith("run_")}`);
      return Promise.resolve(levels.map((names) => names.map((name) => ({ tools: { [name]: echo(`${name}@${session.id}`) }, label: `the remote "${name}"`, origins: new Map([[name, { server: "remote", tool: name }]]) }))));
    },
  });
  return { Remote, events };
}

describe("toolSource()", () => {
  it("adds a source's tools by level, opens one session for the run, closes it as the run ends; a call's row has its origin", async () => {
    const { Remote, events } = recordingSource();
    const model = scriptedModel([{ toolCalls: [{ toolName: "inner", input: {}, toolCallId: "c1" }] }, "done", "two", "three"]);
    const result = await start(
      <Agent model={model}>
        <Remote name="outer" />
        <Step id="a" prompt="x">
          <Remote name="inner" />
        </Step>
        <Step id="b" prompt="y" />
        <Step id="plain" run={() => "no model"} />
      </Agent>,
    ).result;
    expect(events).toEqual(["open 0", "tools ||outer|inner true", "tools ||outer| true", "close 1"]);
    expect((model.doStreamCalls as { tools?: { name: string }[] }[]).map(toolNames)).toEqual([["inner", "outer"], ["inner", "outer"], ["outer"]]);
    const [call] = toolCalls(result.trace);
    expect(call).toMatchObject({ toolName: "inner", output: "inner@1", mcp: { server: "remote", tool: "inner" } });
  });

  it("closes the session when the run fails, and a clash of one level's names fails the step", async () => {
    const { Remote, events } = recordingSource();
    const model = scriptedModel(["never"]);
    const error = await start(
      <Agent model={model}>
        <Tool name="same" value={echo("tool")} />
        <Remote name="same" />
        <Step id="a" prompt="x" />
      </Agent>,
    ).result.catch((e: unknown) => e);
    expect(RunError.isInstance(error)).toBe(true);
    expect(((error as RunError).cause as Error).message).toBe('Two tools are named "same": <Tool name="same"> and the remote "same"');
    expect(events).toEqual(["open 0", "tools ||same| true", "close 1"]);
  });

  it("checks props as the workflow renders: a RenderError names the element; render-time tools clash like <Tool>s", () => {
    const { Remote } = recordingSource();
    const model = scriptedModel([]);
    expect(() => start(<Agent model={model}><Remote name="" /><Step id="a" prompt="x" /></Agent>)).toThrow(
      new RenderError('<Remote name="">: `name` must be a non-empty string', { element: '<Remote name="">' }),
    );
    const Clock = toolSource<{ zone?: string }>({ name: "Clock", check: (props) => props, tools: () => ({ now: echo("now") }) });
    expect(() => start(<Agent model={model}><Clock /><Tool name="now" value={echo("now")} /><Step id="a" prompt="x" /></Agent>)).toThrow(
      /<Tool name="now">: a tool named "now" is already in this scope/,
    );
    expect(() => start(<Agent model={model}><Step id="a" prompt="x"><Clock /><Clock /></Step></Agent>)).toThrow(/<Step id="a">: two tools named "now"/);
    expect(() => toolSource({ name: "Empty", check: () => undefined })).toThrow(/give `tools`/);
  });

  it("McpTools and AskUser are tool sources", () => {
    expect(typeof McpTools).toBe("function");
    expect((McpTools as unknown as Record<symbol, unknown>)[Symbol.for("june.toolSource")]).toMatchObject({ name: "McpTools" });
    expect((AskUser as unknown as Record<symbol, unknown>)[Symbol.for("june.toolSource")]).toMatchObject({ name: "AskUser" });
  });
});
