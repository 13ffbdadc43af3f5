import { describe, expect, it } from "vitest";
import { Agent, CanceledError, Parallel, RunError, Step, TimeoutError, start, type StepNode, type TraceNode } from "june";
import { scriptedModel } from "june/testing";

function steps(tree: TraceNode): StepNode[] {
  const found: StepNode[] = tree.kind === "step" ? [tree] : [];
  for (const child of tree.children) found.push(...steps(child));
  return found;
}

async function failure(promise: Promise<unknown>): Promise<RunError> {
  const error = await promise.then(
    () => {
      throw new Error("expected the run to fail");
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RunError);
  return error as RunError;
}

describe("failures", () => {
  it("rejects with a RunError holding the partial result: cause, finished steps, trace, usage so far", async () => {
    const model = scriptedModel([
      { text: "ok", usage: { inputTokens: 3, outputTokens: 4 } },
      { text: ["half"], error: new Error("upstream 500") },
    ]);
    const error = await failure(
      start(
        <Agent model={model}>
          <Step id="first" prompt="x" />
          <Step id="second" prompt="y" />
          <Step id="third" prompt="z" />
        </Agent>,
      ).result,
    );
    expect((error.cause as Error).message).toBe("upstream 500");
    expect(error.result.status).toBe("error");
    expect(error.result.steps).toEqual({ first: "ok" });
    // The failed call reported nothing, but half its reply came back: June's count of it (its prompt "y" and a
    // message's framing, 1 + 4 tokens; "half", 1 token) adds to the first call's reported 3 + 4.
    expect(error.result.usage).toEqual({ inputTokens: 3 + 5, outputTokens: 4 + 1, totalTokens: 13 });
    expect(error.result.trace).toMatchObject({ kind: "run", status: "error", error: { message: "upstream 500" } });
    expect(steps(error.result.trace).map((s) => [s.name, s.status])).toEqual([
      ["first", "done"],
      ["second", "error"],
    ]);
    expect(steps(error.result.trace)[1]!.partialText).toBe("half");
  });

  it("fails with a provider error thrown when the call starts", async () => {
    const model = scriptedModel({ error: new Error("bad key"), errorAt: "start" });
    const error = await failure(
      start(
        <Agent model={model} maxRetries={0}>
          <Step id="a" prompt="x" />
        </Agent>,
      ).result,
    );
    expect(String((error.cause as Error).message)).toMatch(/bad key/);
  });
});

describe("run timeout", () => {
  it("aborts the model request and fails with a TimeoutError, status error", async () => {
    const model = scriptedModel({ text: ["a", "b", "c"], delay: 1_000 });
    const error = await failure(
      start(
        <Agent model={model}>
          <Step id="slow" prompt="x" />
        </Agent>,
        { timeout: 30 },
      ).result,
    );
    expect(error.cause).toBeInstanceOf(TimeoutError);
    expect((error.cause as TimeoutError).timeout).toBe(30);
    expect(error.result.status).toBe("error");
    expect(model.doStreamCalls[0]!.abortSignal!.aborted).toBe(true);
    expect(steps(error.result.trace)[0]).toMatchObject({ status: "error", error: { name: "TimeoutError" } });
  });

  it("times out a run step that never settles", async () => {
    const error = await failure(start(<Step id="stuck" run={() => new Promise(() => {})} />, { timeout: 20 }).result);
    expect(error.cause).toBeInstanceOf(TimeoutError);
  });
});

describe("cancel and signal", () => {
  it("cancel() aborts the running step and ends the run canceled", async () => {
    const model = scriptedModel({ text: ["a", "b", "c"], delay: 1_000 });
    const updates: TraceNode[] = [];
    const run = start(
      <Agent model={model}>
        <Step id="slow" prompt="x" />
        <Step id="never" prompt="y" />
      </Agent>,
      { onUpdate: (tree) => updates.push(tree) },
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    run.cancel("user stopped");
    const error = await failure(run.result);
    expect(error.cause).toBeInstanceOf(CanceledError);
    expect((error.cause as Error).message).toBe("user stopped");
    expect(error.result.status).toBe("canceled");
    expect(error.result.trace.status).toBe("canceled");
    expect(steps(error.result.trace).map((s) => [s.name, s.status])).toEqual([["slow", "canceled"]]);
    expect(model.doStreamCalls[0]!.abortSignal!.aborted).toBe(true);
    expect(model.callCount).toBe(1);
    // The last commit was delivered before `result` settled.
    expect(updates.at(-1)).toBe(error.result.trace);
  });

  it("aborting the signal cancels the run", async () => {
    const controller = new AbortController();
    const run = start(<Step id="wait" run={(ctx) => new Promise((_, reject) => ctx.signal.addEventListener("abort", () => reject(ctx.signal.reason)))} />, {
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(new Error("page closed")), 10);
    const error = await failure(run.result);
    expect(error.result.status).toBe("canceled");
    expect(error.cause).toBeInstanceOf(CanceledError);
    expect(((error.cause as Error).cause as Error).message).toBe("page closed");
  });

  it("cancel() stops a step whose prompt function is still waiting, and calls no model", async () => {
    const model = scriptedModel(["x"]);
    const run = start(
      <Agent model={model}>
        <Step id="a" prompt={() => new Promise<string>(() => {})} />
      </Agent>,
    );
    await new Promise((resolve) => setTimeout(resolve, 10));
    run.cancel("stop");
    const error = await failure(run.result);
    expect(error.result.status).toBe("canceled");
    expect(steps(error.result.trace).map((s) => [s.name, s.status])).toEqual([["a", "canceled"]]);
    expect(model.callCount).toBe(0);
  });

  it("a step timeout aborts that step's model call; steps without one run on the run's signal", async () => {
    const model = scriptedModel([{ text: ["a"] }, { text: ["b", "c"], delay: 1_000 }]);
    const run = start(
      <Agent model={model}>
        <Step id="quick" prompt="x" />
        <Step id="slow" prompt="y" timeout={20} />
      </Agent>,
    );
    const error = await failure(run.result);
    expect(error.cause).toBeInstanceOf(TimeoutError);
    expect(steps(error.result.trace).map((s) => [s.name, s.status])).toEqual([["quick", "done"], ["slow", "error"]]);
    expect(model.doStreamCalls[1]!.abortSignal!.aborted).toBe(true);
  });

  it("a run step's ctx.signal is its own: what a finished step listens to there is not told of a later cancel", async () => {
    let heard = 0;
    const run = start(
      <>
        <Step
          id="first"
          run={async (ctx) => {
            ctx.signal.addEventListener("abort", () => heard++);
            await new Promise((resolve) => setTimeout(resolve, 5));
            return 1;
          }}
        />
        <Step id="second" run={(ctx) => new Promise((_, reject) => ctx.signal.addEventListener("abort", () => reject(ctx.signal.reason)))} />
      </>,
    );
    await new Promise((resolve) => setTimeout(resolve, 30));
    run.cancel("stop");
    const error = await failure(run.result);
    expect(steps(error.result.trace).map((s) => [s.name, s.status])).toEqual([["first", "done"], ["second", "canceled"]]);
    expect(heard).toBe(0);
  });

  it("an already-aborted signal runs nothing", async () => {
    const model = scriptedModel(["x"]);
    const run = start(
      <Agent model={model}>
        <Step id="a" prompt="x" />
      </Agent>,
      { signal: AbortSignal.abort() },
    );
    const error = await failure(run.result);
    expect(error.result.status).toBe("canceled");
    expect(model.callCount).toBe(0);
  });

  it("cancel() after the run finished does nothing", async () => {
    const run = start(<Step id="a" run={() => 1} />);
    const result = await run.result;
    run.cancel();
    expect(result.status).toBe("done");
  });
});

describe("cancel while waiting", () => {
  it("cancels steps queued for a model slot without leaving anything unhandled", async () => {
    const model = scriptedModel((call) => ({ text: [{ text: `r${call.index}`, delay: 1_000 }] }));
    const run = start(
      <Agent model={model}>
        <Parallel>
          <Step id="a" prompt="a" />
          <Step id="b" prompt="b" />
          <Step id="c" prompt="c" />
        </Parallel>
      </Agent>,
      { concurrency: 1 },
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    run.cancel();
    const error = await failure(run.result);
    expect(error.result.status).toBe("canceled");
    expect(model.callCount).toBe(1);
    expect(steps(error.result.trace).map((s) => s.status)).toEqual(["canceled", "canceled", "canceled"]);
  });
});

describe("options", () => {
  it("rejects bad options with a clear error", () => {
    expect(() => start(<Step id="a" run={() => 1} />, { concurrency: 0 })).toThrow(/concurrency/);
    expect(() => start(<Step id="a" run={() => 1} />, { timeout: -1 })).toThrow(/timeout/);
  });
});
