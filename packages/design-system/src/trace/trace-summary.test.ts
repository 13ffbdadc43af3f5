import { describe, expect, it } from "vitest";
import { canceledStep, doneStep, everyRow, failedStep, runningStep } from "../__fixtures__/rows.js";
import { describeTrace, summarizeTrace } from "./trace-summary.js";

describe("summarizeTrace", () => {
  it("counts rows by kind, nested ones included, and puts a waiting approval first", () => {
    const summary = summarizeTrace(everyRow);
    expect(summary).toEqual({ steps: 5, modelCalls: 5, toolCalls: 5, approvals: 1, status: "pending" });
    expect(describeTrace(summary)).toBe("5 steps · 5 model calls · 5 tool calls");
  });

  it("says error over running, running over done", () => {
    expect(summarizeTrace([runningStep, failedStep]).status).toBe("error");
    expect(summarizeTrace([doneStep, runningStep]).status).toBe("running");
    expect(summarizeTrace([doneStep]).status).toBe("done");
    expect(summarizeTrace([canceledStep]).status).toBe("error");
  });

  it("describes singular counts and leaves out kinds it has none of", () => {
    expect(describeTrace(summarizeTrace([canceledStep]))).toBe("1 step · 1 model call");
    expect(describeTrace(summarizeTrace([]))).toBe("");
  });
});
