import { describe, expect, it } from "vitest";
import { collect, findNodes, readSse, textDeltas } from "./streams.js";
import type { TraceNode } from "../runtime/types.js";

describe("stream helpers", () => {
  it("collects async iterables and ReadableStreams", async () => {
    async function* three() {
      yield 1;
      yield 2;
      yield 3;
    }
    expect(await collect(three())).toEqual([1, 2, 3]);
    const stream = new ReadableStream<string>({
      start(controller) {
        controller.enqueue("a");
        controller.enqueue("b");
        controller.close();
      },
    });
    expect(await collect(stream)).toEqual(["a", "b"]);
    expect(await collect(undefined)).toEqual([]);
  });

  it("picks the text deltas and the nodes of a kind", () => {
    expect(textDeltas([{ type: "run-update" }, { type: "text-delta", text: "Hel" }, { type: "text-delta", text: "lo" }])).toEqual([
      "Hel",
      "lo",
    ]);
    const tree: TraceNode = {
      id: "r",
      kind: "run",
      name: "run",
      status: "done",
      children: [
        { id: "s1", kind: "step", name: "a", status: "done", partialText: "", children: [] },
        { id: "p", kind: "parallel", name: "Parallel", status: "done", children: [
          { id: "s2", kind: "step", name: "b", status: "done", partialText: "", children: [] },
        ] },
      ],
    };
    expect(findNodes(tree, "step").map((node) => node.id)).toEqual(["s1", "s2"]);
  });

  it("parses Server-Sent Events with ids", async () => {
    const body = 'id: 0\nevent: text-delta\ndata: {"type":"text-delta","text":"hi"}\n\nid: 1\nevent: turn-end\ndata: {"status":"completed"}\n\n';
    const events = await readSse(new Response(body, { headers: { "content-type": "text/event-stream" } }));
    expect(events).toEqual([
      { id: "0", event: "text-delta", data: { type: "text-delta", text: "hi" } },
      { id: "1", event: "turn-end", data: { status: "completed" } },
    ]);
  });
});
