/**
 * A custom responder's trace (the responder contract's `ResponderTraceNode`, not the runtime's `TraceNode`)
 * shows: `projectChatTrace` makes its rows, wherever its calls sit, and a durable turn's suspend watch reads
 * its pending approvals.
 */
import { describe, expect, it } from "vitest";
import { createChat, memoryStore, projectChatTrace, type ChatTraceRow, type Responder, type ResponderTraceNode, type TurnEvent } from "june/chat";
import type { ApprovalRequest } from "june";
import { waitsOnApprovalsOnly } from "../durable/suspend-watch.js";

const MODEL = { provider: "acme", modelId: "ranker-2" };

/** A search a custom responder reports: a group holding a model call and a tool call, no step anywhere. */
function searchTree(tool: "pending" | "approved", model: "running" | "done" = "done"): ResponderTraceNode {
  return {
    kind: "group",
    id: "search",
    name: "search",
    status: "running",
    children: [
      { kind: "model-call", id: "rank", name: "rank", status: model, model: MODEL, partialText: "", children: [] },
      {
        kind: "tool-call",
        id: "fetch",
        name: "fetch",
        status: tool === "pending" ? "pending" : "done",
        toolName: "fetch",
        toolCallId: "call-1",
        input: { url: "https://example.com" },
        children: [],
        approval: { id: "a1", state: tool },
      },
    ],
  };
}

/** A responder of its own: it reports its trace, asks for one approval, and answers once it is decided. */
function searchResponder(): Responder {
  return {
    kind: "custom",
    id: "search",
    respond() {
      const request: ApprovalRequest = { id: "a1", stepId: "search", toolName: "fetch", toolCallId: "call-1", input: { url: "https://example.com" } };
      let requests: readonly ApprovalRequest[] = [request];
      let decide!: () => void;
      const decided = new Promise<void>((resolve) => (decide = resolve));
      async function* events(): AsyncGenerator<TurnEvent> {
        yield { type: "run-update", tree: searchTree("pending") };
        yield { type: "approval-request", request };
        await decided;
        yield { type: "run-update", tree: searchTree("approved") };
        yield { type: "text-delta", text: "Found it." };
      }
      const iterator = events();
      return {
        events: iterator,
        result: decided.then(() => ({ text: "Found it." })),
        get requests() {
          return requests;
        },
        decide(id: string) {
          if (id !== "a1" || requests.length === 0) return { kind: "not-pending" };
          requests = [];
          decide();
          return { kind: "decided" };
        },
      };
    },
  };
}

function outline(rows: ChatTraceRow[], depth = 0): string[] {
  return rows.flatMap((row) => [`${"  ".repeat(depth)}${row.kind} "${row.title}" ${row.status}`, ...outline(row.children, depth + 1)]);
}

describe("a custom responder's trace", () => {
  it("gets its rows from projectChatTrace: calls outside any step are rows of their own, with the approval row", async () => {
    const session = await createChat({ responder: searchResponder(), store: memoryStore() }).createSession();
    const turn = session.send("find the page");
    const seen: string[][] = [];
    for await (const event of turn) {
      if (event.type === "approval-request") turn.approve(event.request.id);
      if (event.type === "run-update") seen.push(outline(projectChatTrace(event.tree, { requests: turn.requests })));
    }
    expect((await turn.result).text).toBe("Found it.");
    expect(seen[0]).toEqual(['model "ranker-2 answered" done', 'tool "fetch needs approval" pending', '  approval "Run fetch?" pending']);
    expect(seen.at(-1)).toEqual(['model "ranker-2 answered" done', 'tool "fetch ran" done']);
  });

  it("is read by the suspend watch: a tool call waiting on its approval waits, a running call is busy", () => {
    expect(waitsOnApprovalsOnly(searchTree("pending"))).toBe(true);
    expect(waitsOnApprovalsOnly(searchTree("pending", "running"))).toBe(false);
    expect(waitsOnApprovalsOnly(searchTree("approved"))).toBe(false);
  });
});
