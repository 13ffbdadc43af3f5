import type { TextStreamPart, ToolSet } from "ai";
import type { ApprovalOutcome } from "./approvals.js";
import type { NodeStatus, Usage } from "./types.js";
import { sizeOf } from "../telemetry/attributes.js";
import { JuneSpan, type SpanAttributes } from "../telemetry/june-span.js";
import { ModelCallSpan, type ModelCallInfo } from "../telemetry/model-call-span.js";
import { resolveTelemetry, type Telemetry, type TelemetryOption } from "../telemetry/options.js";
import type { Cost } from "../cost/price.js";

interface ToolSpan {
  readonly span: JuneSpan;
}

interface StepSpans {
  readonly span: JuneSpan;
  readonly stepId: string;
  /** Open tool-call spans, by `toolCallId`. */
  readonly tools: Map<string, ToolSpan>;
}

interface ApprovalSpan {
  readonly span: JuneSpan;
  readonly tool: ToolSpan | undefined;
  readonly step: StepSpans;
  readonly openedAt: number;
}

/**
 * One run's spans: `june.run` > `june.step` > the model calls (`chat {model}`) and the tool calls
 * (`june.tool` > `june.approval`). The runtime calls it at a few places (run, step, call, approval); it
 * keeps the open spans by trace node and ends whatever its step leaves open. Absent (undefined) when
 * telemetry is off or nothing records, so the runtime's hooks cost one optional call.
 */
export class RunSpans {
  readonly #run: JuneSpan;
  readonly #runId: string;
  readonly #steps = new Map<string, StepSpans>();
  readonly #approvals = new Map<string, ApprovalSpan>();

  private constructor(run: JuneSpan, runId: string) {
    this.#run = run;
    this.#runId = runId;
  }

  /** Starts the run's span; undefined when telemetry is off or the span does not record. */
  static open(option: TelemetryOption | undefined, runId: string): RunSpans | undefined {
    const telemetry: Telemetry | undefined = resolveTelemetry(option, "start()");
    if (!telemetry) return undefined;
    const span = JuneSpan.start(telemetry, "june.run", { "june.run.id": runId });
    return span ? new RunSpans(span, runId) : undefined;
  }

  get telemetry(): Telemetry {
    return this.#run.telemetry;
  }

  /** A step started (its trace node `nodeId`). */
  stepStarted(nodeId: string, stepId: string): void {
    const span = this.#run.child("june.step", { "june.step.id": stepId, "june.run.id": this.#runId });
    if (span) this.#steps.set(nodeId, { span, stepId, tools: new Map() });
  }

  /** A step ended: its span ends with its status (and error), closing the tool and approval spans it left open. */
  stepEnded(nodeId: string, status: NodeStatus, error?: unknown, usage?: Usage, cost?: Cost): void {
    const step = this.#steps.get(nodeId);
    if (!step) return;
    this.#steps.delete(nodeId);
    for (const [approvalId, approval] of this.#approvals) {
      if (approval.step === step) this.#settleApproval(approvalId, { kind: "withdrawn" });
    }
    for (const tool of step.tools.values()) tool.span.end({ "june.tool.status": status === "error" ? "error" : "canceled" });
    if (status === "error" && error !== undefined) step.span.fail(error);
    step.span.end({ "june.step.status": status, ...usageAttributes(usage, cost) });
  }

  /** A model call of a step starts: its span, or undefined. */
  modelCall(stepNodeId: string, info: ModelCallInfo): RunCallSpans | undefined {
    const step = this.#steps.get(stepNodeId);
    if (!step) return undefined;
    const call = ModelCallSpan.start(step.span.telemetry, step.span.context, { ...info, attributes: { "june.step.id": step.stepId, "june.run.id": this.#runId, ...info.attributes } });
    return call ? new RunCallSpans(this, step, call) : undefined;
  }

  /** An approval was decided or withdrawn. */
  approvalSettled(approvalId: string, outcome: ApprovalOutcome, decidedBy?: "policy"): void {
    this.#settleApproval(approvalId, outcome, decidedBy);
  }

  /** A step's code asked a question (`ctx.ask`): its `june.approval` span, under the step's. */
  questionOpened(stepNodeId: string, requestId: string, toolName: string): void {
    const step = this.#steps.get(stepNodeId);
    if (step) this.approvalOpened(step, requestId, toolName, requestId);
  }

  /** @internal A tool call asked for approval. */
  approvalOpened(step: StepSpans, toolCallId: string, toolName: string, approvalId: string): void {
    const tool = step.tools.get(toolCallId);
    tool?.span.set({ "june.tool.needs_approval": true });
    const span = (tool?.span ?? step.span).child("june.approval", {
      "june.approval.id": approvalId,
      "gen_ai.tool.call.id": toolCallId,
      "gen_ai.tool.name": toolName,
    });
    if (span) this.#approvals.set(approvalId, { span, tool, step, openedAt: Date.now() });
  }

  /** A steer or cancel, as an event on the run's span. */
  event(name: "june.steer" | "june.cancel", input?: string): void {
    this.#run.inputEvent(name, input);
  }

  /** The run ended. */
  end(status: "done" | "error" | "canceled", usage: Usage, error?: unknown, cost?: Cost): void {
    for (const nodeId of [...this.#steps.keys()]) this.stepEnded(nodeId, status);
    if (status === "error" && error !== undefined) this.#run.fail(error);
    this.#run.end({ "june.run.status": status, ...usageAttributes(usage, cost) });
  }

  #settleApproval(approvalId: string, outcome: ApprovalOutcome, decidedBy?: "policy"): void {
    const approval = this.#approvals.get(approvalId);
    if (!approval) return;
    this.#approvals.delete(approvalId);
    // A policy's reason is the workflow's own text (no person typed it): kept like any attribute, redacted.
    const reason = outcome.kind === "denied" || decidedBy ? (outcome as { reason?: string }).reason : undefined;
    if (decidedBy) {
      approval.span.set({ "june.approval.decided_by": decidedBy, ...(reason !== undefined ? { "june.approval.reason": reason } : {}) });
    } else if (outcome.kind === "denied") approval.span.input("june.approval.reason", outcome.reason);
    // An edited input is said, never recorded here (the tool's span records inputs under its own settings).
    if (outcome.kind === "approved" && outcome.input !== undefined) approval.span.set({ "june.approval.edited": true, "june.approval.edited_by": "you" });
    approval.span.end({ "june.approval.decision": outcome.kind, "june.approval.wait_ms": Date.now() - approval.openedAt });
    if (approval.tool && outcome.kind !== "withdrawn") approval.tool.span.set({ "june.tool.approved": outcome.kind === "approved" });
  }
}

/** One model call's spans inside a run: the call's own, and the tool calls it reports. */
export class RunCallSpans {
  constructor(
    private readonly run: RunSpans,
    private readonly step: StepSpans,
    readonly call: ModelCallSpan,
  ) {}

  with<T>(fn: () => T): T {
    return this.call.with(fn);
  }

  /** Reads one part of the call's stream. */
  onPart(part: TextStreamPart<ToolSet>): void {
    this.call.onPart(part);
    switch (part.type) {
      case "tool-call":
        this.#toolStarted(part.toolCallId, part.toolName, part.input);
        return;
      case "tool-approval-request":
        this.#toolStarted(part.toolCall.toolCallId, part.toolCall.toolName, part.toolCall.input);
        this.run.approvalOpened(this.step, part.toolCall.toolCallId, part.toolCall.toolName, part.approvalId);
        return;
      case "tool-result":
        if (part.preliminary) return;
        this.#answeredElsewhere(part.toolCallId, part.toolName, part.input);
        return this.#toolEnded(part.toolCallId, "done", { output: part.output });
      case "tool-error":
        this.#answeredElsewhere(part.toolCallId, part.toolName, part.input);
        return this.#toolEnded(part.toolCallId, "error", { error: part.error });
      case "tool-output-denied":
        this.#answeredElsewhere(part.toolCallId, part.toolName, undefined);
        return this.#toolEnded(part.toolCallId, "denied", {});
      default:
        return;
    }
  }

  fail(error: unknown): void {
    this.call.fail(error);
  }

  cost(cost: Cost): void {
    this.call.cost(cost);
  }

  end(reason?: string): void {
    this.call.end(reason);
  }

  #toolStarted(toolCallId: string, toolName: string, input: unknown): void {
    if (this.step.tools.has(toolCallId)) return;
    const span = this.step.span.child("june.tool", {
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": toolName,
      "gen_ai.tool.call.id": toolCallId,
      "gen_ai.tool.type": "function",
      "june.tool.needs_approval": false,
      "june.tool.input.chars": sizeOf(input),
    });
    if (!span) return;
    span.input("gen_ai.tool.call.arguments", input);
    this.step.tools.set(toolCallId, { span });
  }

  /**
   * A tool that runs (or is denied) with no call of its own in this step: one whose approval was asked in an
   * earlier call, in a run that was resumed from a checkpoint (another process, a restart). Its span starts
   * here, so the resumed trace still shows the tool call, marked as one that needed approval.
   */
  #answeredElsewhere(toolCallId: string, toolName: string, input: unknown): void {
    if (this.step.tools.has(toolCallId)) return;
    this.#toolStarted(toolCallId, toolName, input);
    this.step.tools.get(toolCallId)?.span.set({ "june.tool.needs_approval": true, "june.tool.resumed": true });
  }

  #toolEnded(toolCallId: string, status: "done" | "error" | "denied", end: { output?: unknown; error?: unknown }): void {
    const tool = this.step.tools.get(toolCallId);
    if (!tool) return;
    this.step.tools.delete(toolCallId);
    if (status === "done") tool.span.output("gen_ai.tool.call.result", end.output);
    if (status === "error") tool.span.fail(end.error);
    tool.span.end({
      "june.tool.status": status,
      "june.tool.output.chars": status === "done" ? sizeOf(end.output) : undefined,
      ...(status === "denied" ? { "june.tool.approved": false } : {}),
    });
  }
}

function usageAttributes(usage: Usage | undefined, cost?: Cost): SpanAttributes {
  if (!usage) return {};
  if (cost?.usd !== undefined) return { ...usageAttributes(usage), "june.cost.usd": cost.usd };
  return {
    "gen_ai.usage.input_tokens": usage.inputTokens,
    "gen_ai.usage.output_tokens": usage.outputTokens,
    "june.usage.total_tokens": usage.totalTokens,
  };
}
