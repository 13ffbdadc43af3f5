import { describe, expect, it } from "vitest";
import { redact } from "../redaction/redact.js";
import type { ChatTraceRow } from "../chat/trace/project-chat-trace.js";
import { createColors, stripAnsi } from "./colors.js";
import {
  describeFailure,
  formatToolInput,
  approvalAnswer,
  renderApprovalDecision,
  renderApprovalPrompt,
  renderErrorLine,
  renderProgressLine,
} from "./render.js";

const plain = createColors(false);
/** What the output gate's `redact` does with no JUNE_REDACT. */
const gateRedact = <T,>(value: T): T => redact(value);
const color = createColors(true);

const step = (id: string, status: ChatTraceRow["status"], children: ChatTraceRow[] = []): ChatTraceRow => ({
  kind: "step",
  id: `step:${id}`,
  stepId: id,
  title: status === "running" ? `Running ${id}` : `${id} done`,
  status,
  children,
});
const toolRow = (name: string, status: ChatTraceRow["status"], children: ChatTraceRow[] = []): ChatTraceRow => ({
  kind: "tool",
  id: `tool:${name}`,
  toolName: name,
  toolCallId: "c1",
  title: status === "pending" ? `Waiting for approval: ${name}` : `Calling ${name}`,
  status,
  input: "{}",
  children,
});

describe("renderProgressLine", () => {
  it("shows each running step and what it does now", () => {
    const rows = [step("draft", "done"), step("research", "running", [toolRow("search", "running")])];
    expect(renderProgressLine(rows, { colors: plain })).toBe("… Running research · Calling search");
  });

  it("shows the deepest waiting row, and parallel steps side by side", () => {
    const approval: ChatTraceRow = {
      kind: "approval",
      id: "approval:a1",
      approvalId: "a1",
      toolName: "deploy",
      title: "Approval needed: deploy",
      status: "pending",
      input: "{}",
      children: [],
    };
    const rows = [step("a", "running", [toolRow("deploy", "pending", [approval])]), step("b", "running")];
    expect(renderProgressLine(rows, { colors: plain })).toBe("… Running a · Approval needed: deploy  |  Running b");
  });

  it("is empty when nothing runs, and fits the terminal", () => {
    expect(renderProgressLine([step("a", "done")], { colors: plain })).toBe("");
    const long = step("x".repeat(200), "running");
    const line = renderProgressLine([long], { colors: plain, columns: 40 });
    expect(line.length).toBeLessThanOrEqual(40);
    expect(line.endsWith("…")).toBe(true);
  });

  it("colors only when asked", () => {
    const line = renderProgressLine([step("a", "running")], { colors: color });
    expect(line).toContain("\u001B[");
    expect(stripAnsi(line)).toBe("… Running a");
  });
});

describe("approval prompts", () => {
  it("shows the tool and its input with credentials redacted (by the gate's redact, before the input is cut)", () => {
    const prompt = renderApprovalPrompt(
      { toolName: "deploy", input: { env: "prod", apiKey: "abc123", note: "use sk-proj-abcdefghijklmnopqrstuvwxyz0123" } },
      plain,
      gateRedact,
    );
    expect(prompt.header).toContain("deploy wants to run with");
    expect(prompt.header).toContain('"env": "prod"');
    expect(prompt.header).not.toContain("abc123");
    expect(prompt.header).not.toContain("sk-proj-abcdefghijklmnopqrstuvwxyz0123");
    expect(prompt.question).toBe("approve? [y/N/e(dit)] ");
  });

  it("names a sub-agent's path (a <Tool agent>'s request), and a plain step's request as before", () => {
    expect(renderApprovalPrompt({ toolName: "fetchPage", input: {}, stepId: "answer/research/notes" }, plain, gateRedact).header).toContain("fetchPage (in answer/research/notes) wants to run with");
    expect(renderApprovalPrompt({ toolName: "deploy", input: {}, stepId: "ship" }, plain, gateRedact).header).toContain("deploy wants to run with");
  });

  it("bounds a huge input", () => {
    expect(formatToolInput("x".repeat(10_000), gateRedact, 100)).toHaveLength(100);
  });

  it("approves on y or yes only", () => {
    for (const yes of ["y", "Y", "yes", " YES "]) expect(approvalAnswer(yes)).toBe("approve");
    for (const edit of ["e", "E", "edit", " Edit "]) expect(approvalAnswer(edit)).toBe("edit");
    for (const no of ["", "n", "no", "yep", "sure", "ed", undefined]) expect(approvalAnswer(no)).toBe("deny");
  });

  it("says how a request was decided without asking", () => {
    expect(renderApprovalDecision({ toolName: "deploy", approved: true }, plain)).toBe("✓ approved deploy");
    expect(renderApprovalDecision({ toolName: "deploy", approved: false, reason: "no one to approve" }, plain)).toBe(
      "✗ denied deploy (no one to approve)",
    );
  });
});

describe("errors", () => {
  it("renders one line (the output gate masks it when it is written: see output-gate.test.ts)", () => {
    expect(renderErrorLine("bad\nthing", plain)).toBe("june: bad thing");
    expect(describeFailure(new TypeError("token\nrefused"))).toBe("TypeError: token refused");
    expect(describeFailure(new Error("plain"))).toBe("plain");
    expect(describeFailure("a string")).toBe("a string");
    expect(describeFailure({ name: "Odd", message: "shape" })).toBe("Odd: shape");
  });
});
