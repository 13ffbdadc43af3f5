/** No tracer provider registered in this file (vitest runs each file in its own worker): telemetry is a no-op. */
import { trace } from "@opentelemetry/api";
import { describe, expect, it } from "vitest";
import { createChat } from "june/chat";
import { scriptedModel } from "june/testing";
import { RunSpans } from "../runtime/run-spans.js";
import { resolveTelemetry } from "./options.js";
import { TurnSpans } from "../chat/turn-spans.js";

describe("telemetry with no tracer provider registered", () => {
  it("starts no run or turn spans: the runtime's and the chat's hooks see undefined", () => {
    expect(RunSpans.open(undefined, "run_1")).toBeUndefined();
    expect(RunSpans.open(true, "run_1")).toBeUndefined();
    expect(RunSpans.open(false, "run_1")).toBeUndefined();
    const telemetry = resolveTelemetry(true, "test")!;
    expect(TurnSpans.start(telemetry, { sessionId: "s", turnId: "t", provenance: { kind: "model" }, input: "hi" })).toBeUndefined();
    expect(trace.getActiveSpan()).toBeUndefined();
  });

  it("a chat turn runs as before", async () => {
    const chat = createChat({ model: scriptedModel("hello"), telemetry: true });
    const turn = (await chat.createSession()).send("hi");
    expect((await turn.result).text).toBe("hello");
  });
});
