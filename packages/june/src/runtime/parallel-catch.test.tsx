import { describe, expect, it } from "vitest";
import { Agent, Catch, Parallel, RunError, Step, start, type CatchNode, type StepNode, type TraceNode } from "june";
import { scriptedModel } from "june/testing";

function nodes(tree: TraceNode, kind: TraceNode["kind"]): TraceNode[] {
  const found: TraceNode[] = tree.kind === kind ? [tree] : [];
  for (const child of tree.children) found.push(...nodes(child, kind));
  return found;
}

function step(tree: TraceNode, id: string): StepNode {
  return nodes(tree, "step").find((node) => node.name === id) as StepNode;
}

/** A deferred the test resolves by hand, so overlap is forced, not timed. */
function gate() {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

describe("Parallel", () => {
  it("runs its children at the same time (their intervals overlap)", async () => {
    const model = scriptedModel((call) => ({ text: [{ text: `reply ${call.index}`, delay: 30 }] }));
    const result = await start(
      <Agent model={model}>
        <Parallel>
          <Step id="a" prompt="a" />
          <Step id="b" prompt="b" />
          <Step id="c" prompt="c" />
        </Parallel>
        <Step id="after" run={(ctx) => Object.keys(ctx.steps).sort()} />
      </Agent>,
    ).result;
    const [a, b, c] = ["a", "b", "c"].map((id) => step(result.trace, id));
    // Every branch started before any branch ended.
    const lastStart = Math.max(a!.startedAt!, b!.startedAt!, c!.startedAt!);
    const firstEnd = Math.min(a!.endedAt!, b!.endedAt!, c!.endedAt!);
    expect(lastStart).toBeLessThanOrEqual(firstEnd);
    expect(result.steps.after).toEqual(["a", "b", "c"]);
    expect(step(result.trace, "after").startedAt!).toBeGreaterThanOrEqual(Math.max(a!.endedAt!, b!.endedAt!, c!.endedAt!));
  });

  it("overlaps run steps: both are in flight before either finishes", async () => {
    const events: string[] = [];
    const both = gate();
    let started = 0;
    const body = (id: string) => async () => {
      events.push(`start ${id}`);
      if (++started === 2) both.open();
      await both.promise;
      events.push(`end ${id}`);
      return id;
    };
    await start(
      <Parallel>
        <Step id="x" run={body("x")} />
        <Step id="y" run={body("y")} />
      </Parallel>,
    ).result;
    expect(events.slice(0, 2).sort()).toEqual(["start x", "start y"]);
  });

  it("limits how many children run at once with `concurrency`", async () => {
    let inFlight = 0;
    let max = 0;
    const body = async () => {
      inFlight++;
      max = Math.max(max, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 5));
      inFlight--;
    };
    await start(
      <Parallel concurrency={2}>
        {[1, 2, 3, 4, 5].map((n) => (
          <Step key={n} id={`s${n}`} run={body} />
        ))}
      </Parallel>,
    ).result;
    expect(max).toBe(2);
  });

  it("aborts running siblings when a child fails and fails with that child's error", async () => {
    const model = scriptedModel((call) => {
      const prompt = JSON.stringify(call.options.prompt);
      if (prompt.includes("fail")) return { text: ["x"], delay: 5, error: new Error("provider exploded") };
      return { text: ["slow", " ", "reply"], delay: 200 };
    });
    const run = start(
      <Agent model={model}>
        <Parallel>
          <Step id="failing" prompt="fail" />
          <Step id="slow" prompt="slow" />
        </Parallel>
        <Step id="never" prompt="never" />
      </Agent>,
    );
    const error = (await run.result.catch((e: unknown) => e)) as RunError;
    expect(error).toBeInstanceOf(RunError);
    expect((error.cause as Error).message).toBe("provider exploded");
    expect(error.result.status).toBe("error");
    expect(step(error.result.trace, "failing")).toMatchObject({ status: "error", error: { message: "provider exploded" } });
    expect(step(error.result.trace, "slow").status).toBe("canceled");
    expect(nodes(error.result.trace, "parallel")[0]!.status).toBe("error");
    expect(step(error.result.trace, "never")).toBeUndefined();
    // The slow sibling's model request was aborted.
    const slowCall = model.doStreamCalls.find((call) => JSON.stringify(call.prompt).includes("slow"));
    expect(slowCall!.abortSignal!.aborted).toBe(true);
  });
});

describe("Catch", () => {
  it("records the error and runs an element fallback; the run goes on", async () => {
    const model = scriptedModel([{ error: new Error("rate limited"), errorAt: "end" }, "fallback reply", "next"]);
    const result = await start(
      <Agent model={model}>
        <Catch fallback={<Step id="fallback" prompt="try again" />}>
          <Step id="risky" prompt="x" maxSteps={1} />
          <Step id="skipped" prompt="never" />
        </Catch>
        <Step id="after" prompt="go on" />
      </Agent>,
    ).result;
    expect(result.status).toBe("done");
    expect(result.steps).toEqual({ fallback: "fallback reply", after: "next" });
    const catchNode = nodes(result.trace, "catch")[0] as CatchNode;
    expect(catchNode).toMatchObject({ status: "done", error: { message: "rate limited" } });
    expect(step(result.trace, "risky")).toMatchObject({ status: "error" });
    expect(step(result.trace, "skipped")).toBeUndefined();
  });

  it("calls a function fallback with the error", async () => {
    const result = await start(
      <Catch fallback={(error) => <Step id="recovered" run={() => `recovered from ${(error as Error).message}`} />}>
        <Step
          id="throws"
          run={() => {
            throw new Error("bad input");
          }}
        />
      </Catch>,
    ).result;
    expect(result.steps).toEqual({ recovered: "recovered from bad input" });
  });

  it("inside a Parallel handles its own child, and the siblings finish", async () => {
    const result = await start(
      <Parallel>
        <Catch fallback={<Step id="fb" run={() => "fb"} />}>
          <Step
            id="bad"
            run={async () => {
              throw new Error("x");
            }}
          />
        </Catch>
        <Step id="good" run={async () => new Promise((resolve) => setTimeout(() => resolve("good"), 20))} />
      </Parallel>,
    ).result;
    expect(result.steps).toEqual({ fb: "fb", good: "good" });
    expect(step(result.trace, "good").status).toBe("done");
  });

  it("catches a step timeout", async () => {
    const model = scriptedModel({ text: ["a", "b"], delay: 500 });
    const result = await start(
      <Agent model={model}>
        <Catch fallback={(error) => <Step id="fb" run={() => (error as Error).name} />}>
          <Step id="slow" prompt="x" timeout={20} />
        </Catch>
      </Agent>,
    ).result;
    expect(result.steps).toEqual({ fb: "TimeoutError" });
    expect(step(result.trace, "slow")).toMatchObject({ status: "error", error: { name: "TimeoutError" } });
    expect(model.doStreamCalls[0]!.abortSignal!.aborted).toBe(true);
  });
});
