// A durable turn that suspends and is resumed by another chat (another process, as far as the store knows)
// continues the same trace: the checkpoint keeps the turn span's ids, and the resumed turn's span is its child.
import { describe, expect, it } from "vitest";
import { memoryStore, TurnSuspendedError, type Turn } from "june/chat";
import { durableChat, SECRET } from "../chat/__fixtures__/durable-chat.js";
import { exported, memoryTracing, parentOf } from "./__fixtures__/memory-tracing.js";

const tracing = memoryTracing();

async function firstRequest(turn: Turn) {
  for await (const event of turn) if (event.type === "approval-request") return event.request;
  throw new Error("the turn ended without asking");
}

describe("telemetry of a resumed durable turn", () => {
  it("continues the trace of the turn that suspended: one trace, the resumed june.turn a child of the first", async () => {
    const store = memoryStore();
    const one = durableChat({ store, durable: { suspendAfterMs: 50 } });
    const session = await one.chat.createSession({ id: "traced" });
    const turn = session.send("ship the docs");
    await firstRequest(turn);
    expect(await turn.result.catch((e: unknown) => e)).toBeInstanceOf(TurnSuspendedError);
    const [before, ...others] = tracing.spans().filter((s) => s.name === "june.turn");
    expect(others).toEqual([]);
    expect(before!.attributes["june.turn.status"]).toBe("suspended");
    const seen = new Set(tracing.spans());

    const two = durableChat({ store });
    const again = await two.chat.openSession("traced");
    const live = await again.resume(turn.id);
    expect(live.approve(live.requests[0]!.id)).toBe(true);
    await live.result;

    const later = tracing.spans().filter((s) => !seen.has(s));
    const after = later.find((s) => s.name === "june.turn")!;
    expect(after).toBeDefined();
    expect(after.spanContext().traceId).toBe(before!.spanContext().traceId);
    expect(parentOf(after)).toBe(before!.spanContext().spanId);
    expect(after.attributes).toMatchObject({ "june.turn.id": turn.id, "june.session.id": "traced", "june.turn.status": "completed" });
    expect(after.events.map((e) => e.name)).toContain("june.resume");
    // Everything the resumed turn did (its run, steps, model and tool calls) sits in the same trace.
    expect(later.length).toBeGreaterThan(1);
    for (const span of later) expect(span.spanContext().traceId, span.name).toBe(before!.spanContext().traceId);
    const tool = later.find((s) => s.name === "june.tool")!;
    expect(tool).toBeDefined();
    expect(tool.attributes).toMatchObject({ "gen_ai.tool.name": "deploy", "june.tool.needs_approval": true, "june.tool.resumed": true, "june.tool.status": "done" });
    for (const span of tracing.spans()) expect(exported(span)).not.toContain(SECRET);
  });

  it("a checkpoint with no trace link (or a damaged one) resumes under a trace of its own", async () => {
    const { linkedContext } = await import("../chat/turn-spans.js");
    expect(linkedContext(undefined)).toBeUndefined();
    expect(linkedContext({ traceId: "nope", spanId: "0123456789abcdef", traceFlags: 1 })).toBeUndefined();
    expect(linkedContext({ traceId: "0123456789abcdef0123456789abcdef", spanId: "0123456789abcdef", traceFlags: 1 })).toBeDefined();
  });
});
