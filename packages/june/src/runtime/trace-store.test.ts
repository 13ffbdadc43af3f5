import { describe, expect, it } from "vitest";
import { TraceStore } from "./trace-store.js";
import type { TraceNode } from "./types.js";

function store(onUpdate?: (tree: TraceNode) => void): TraceStore {
  return new TraceStore("run-0", { kind: "run", name: "run", status: "running", startedAt: 1 }, onUpdate);
}

describe("TraceStore commits", () => {
  it("a snapshot keeps what it showed when the node changes later (the working copy changes in place)", () => {
    const trace = store();
    const id = trace.add("run-0", { kind: "step", name: "a", status: "running", startedAt: 1, partialText: "" });
    trace.appendText(id, "Hel");
    const first = trace.snapshot();
    trace.update(id, { status: "done", endedAt: 2, result: "Hello" });
    trace.appendText(id, "lo");
    const second = trace.snapshot();
    expect(first.children[0]).toMatchObject({ status: "running", partialText: "Hel" });
    expect(first.children[0]).not.toHaveProperty("endedAt");
    expect(second.children[0]).toMatchObject({ status: "done", endedAt: 2, partialText: "Hello", result: "Hello" });
    // Keys in the order they were first set, `children` last (what the JSON of a trace shows).
    expect(Object.keys(second.children[0]!)).toEqual(["kind", "name", "status", "startedAt", "partialText", "id", "endedAt", "result", "children"]);
  });

  it("never changes a node's id or kind, whatever a patch says", () => {
    const trace = store();
    const id = trace.add("run-0", { kind: "step", name: "a", status: "running", startedAt: 1, partialText: "" });
    trace.update(id, { id: "other", kind: "tool-call", status: "done" });
    expect(trace.snapshot().children[0]).toMatchObject({ id, kind: "step", status: "done" });
  });

  it("freezes snapshots and the structural objects in them, not the objects it was given", () => {
    const trace = store();
    const model = { provider: "p", modelId: "m" };
    const usage = { inputTokens: 1, outputTokens: 2, totalTokens: 3 };
    const id = trace.add("run-0", { kind: "step", name: "a", status: "running", startedAt: 1, partialText: "", model });
    trace.update(id, { usage });
    const node = trace.snapshot().children[0] as TraceNode & { model: object; usage: object };
    expect(Object.isFrozen(node)).toBe(true);
    expect(Object.isFrozen(node.children)).toBe(true);
    expect(Object.isFrozen(node.model)).toBe(true);
    expect(Object.isFrozen(node.usage)).toBe(true);
    expect(node.model).toEqual(model);
    expect(Object.isFrozen(model)).toBe(false);
    expect(Object.isFrozen(usage)).toBe(false);
    // An untouched node is shared between commits; a frozen structural value too.
    trace.add("run-0", { kind: "step", name: "b", status: "running", startedAt: 1, partialText: "" });
    const later = trace.snapshot();
    expect(later.children[0]).toBe(node);
    trace.update(id, { status: "done" });
    expect((trace.snapshot().children[0] as typeof node).model).toBe(node.model);
  });

  it("commits once for a burst of changes, and once more on close", async () => {
    const trees: TraceNode[] = [];
    const trace = store((tree) => trees.push(tree));
    const id = trace.add("run-0", { kind: "step", name: "a", status: "running", startedAt: 1, partialText: "" });
    for (const word of ["a ", "b ", "c "]) trace.appendText(id, word);
    await new Promise((resolve) => setImmediate(resolve));
    expect(trees).toHaveLength(1);
    trace.update(id, { status: "done" });
    const last = trace.close();
    expect(trees).toHaveLength(2);
    expect(trees[1]).toBe(last);
    expect(last.children[0]).toMatchObject({ status: "done", partialText: "a b c " });
  });
});
