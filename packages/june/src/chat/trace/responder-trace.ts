import type { ModelInfo, Usage } from "../../ai-sdk/call-types.js";
import type { Cost } from "../../cost/price.js";

/**
 * A turn's trace as the responder contract carries it (`run-update` events): the tree a responder reports,
 * which `projectChatTrace` turns into rows and a durable turn's suspend watch reads. Its own type, not the
 * runtime's: `agentResponder` hands over the runtime's `TraceNode` as is (it has this shape), and a custom
 * responder builds one from plain objects. Where a node sits decides its row: a `step` is a top row with its
 * model and tool calls under it; a `model-call` or a `tool-call` outside any step is a top row of its own
 * (a tool call waiting on an approval shows its approval row); a group (`run`, `agent`, `parallel`, `catch`,
 * or a responder's own `group`) only holds its children.
 */
export type ResponderTraceNode = ResponderTraceGroup | ResponderTraceStep | ResponderTraceModelCall | ResponderTraceToolCall;

/** A node's state. */
export type ResponderTraceStatus = "pending" | "running" | "done" | "error" | "canceled";

interface ResponderTraceBase {
  /** Stable from one snapshot to the next: a row's id is made from it. */
  readonly id: string;
  /** What the row names: a step's id, a tool's name. */
  readonly name: string;
  readonly status: ResponderTraceStatus;
  /** When it started and ended (epoch milliseconds), once known. */
  readonly startedAt?: number;
  readonly endedAt?: number;
  readonly children: readonly ResponderTraceNode[];
  /** The failure, when `status` is `error` or `canceled`. */
  readonly error?: { readonly name: string; readonly message: string };
}

/** A node that only holds others. */
export interface ResponderTraceGroup extends ResponderTraceBase {
  readonly kind: "run" | "agent" | "parallel" | "catch" | "group";
}

/** A step: a top row, its model and tool calls under it wherever they nest. */
export interface ResponderTraceStep extends ResponderTraceBase {
  readonly kind: "step";
  /** What the step wrote so far. */
  readonly partialText?: string;
  readonly model?: ModelInfo;
  readonly usage?: Usage;
  /** What its model calls cost, when known. */
  readonly cost?: Cost;
  /** A streamed step (`<Step stream>`). */
  readonly stream?: boolean;
  /** A step with an `output`: its value so far (`partialOutput`) and, once done, its `result`. */
  readonly structured?: boolean;
  readonly partialOutput?: unknown;
  readonly result?: unknown;
}

/** One model call. */
export interface ResponderTraceModelCall extends ResponderTraceBase {
  readonly kind: "model-call";
  readonly model: ModelInfo;
  readonly partialText?: string;
  /** What the call reasoned, as a bounded, redacted excerpt. */
  readonly reasoning?: string;
  readonly usage?: Usage;
  /** What its model calls cost, when known. */
  readonly cost?: Cost;
  readonly finishReason?: string;
  /** What the call was sent and answered, as bounded, redacted excerpts. */
  readonly prompt?: readonly ResponderTraceMessage[];
  readonly promptOmitted?: number;
  readonly response?: readonly ResponderTraceMessage[];
  /** The request under way, from 1, and the ones that failed before it. */
  readonly attempt?: number;
  readonly failedAttempts?: readonly {
    readonly attempt: number;
    readonly startedAt: number;
    readonly endedAt: number;
    readonly error: { readonly name: string; readonly message: string };
  }[];
}

/** One message of a model call's prompt or response. */
export interface ResponderTraceMessage {
  readonly role: "system" | "user" | "assistant" | "tool";
  readonly text: string;
}

/** One tool call; `approval.state: "pending"` while it waits on a decision. */
export interface ResponderTraceToolCall extends ResponderTraceBase {
  readonly kind: "tool-call";
  readonly toolName: string;
  readonly toolCallId: string;
  readonly input: unknown;
  readonly output?: unknown;
  readonly approval?: {
    readonly id: string;
    readonly state: "pending" | "approved" | "denied";
    readonly reason?: string;
    readonly decidedBy?: "policy";
    /** Approved with an input the person changed. */
    readonly edited?: true;
  };
  /** For a tool of an MCP server: the server's name and the tool's name there. */
  readonly mcp?: { readonly server: string; readonly tool: string };
}
