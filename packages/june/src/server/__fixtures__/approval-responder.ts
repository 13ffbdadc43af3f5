import type { ApprovalRequest, DecisionOutcome, TraceNode } from "../../runtime/types.js";
import type { Responder, TurnEvent, ResponderResult } from "../../chat/types.js";

/** What the test tool would have run with: credentials that must never leave the server. */
export const SECRET_INPUT = {
  env: "staging",
  apiKey: "plain-api-key-value-123",
  headers: { authorization: "Bearer abcdefghijklmnop123456" },
  note: "use sk-proj-ABCDEFGHIJ0123456789xyz for the deploy",
};

/** Strings from `SECRET_INPUT` that no response may contain. */
export const SECRETS = ["plain-api-key-value-123", "abcdefghijklmnop123456", "sk-proj-ABCDEFGHIJ0123456789xyz", "tok-secret-output"];

export interface ApprovalResponderOptions {
  /** How many tool calls needing approval the turn makes, one after the other (default 1). */
  calls?: number;
}

/**
 * A responder shaped like an agent turn with a tool that needs approval: it writes a line, shows the tool
 * call pending in its trace, asks for approval, and once decided runs (or skips) the tool and writes the
 * rest. Honors `signal`.
 */
export function approvalResponder(options: ApprovalResponderOptions = {}): Responder {
  const calls = options.calls ?? 1;
  let turnCount = 0;
  return {
    kind: "custom",
    id: "approval-test",
    respond({ signal, turnId }) {
      const turn = turnCount++;
      let requests: ApprovalRequest[] = [];
      const decisions = new Map<string, (decision: { approved: boolean; reason?: string }) => void>();
      let text = "";
      let finish!: (result: ResponderResult) => void;
      let fail!: (error: unknown) => void;
      const result = new Promise<ResponderResult>((resolve, reject) => {
        finish = resolve;
        fail = reject;
      });
      result.catch(() => {});

      const decide = (id: string, decision: { approved: boolean; reason?: string }): DecisionOutcome => {
        const resolve = decisions.get(id);
        if (!resolve) return { kind: "not-pending" };
        decisions.delete(id);
        requests = requests.filter((request) => request.id !== id);
        resolve({ approved: decision.approved, ...(decision.reason !== undefined && { reason: decision.reason }) });
        return { kind: "decided" };
      };

      async function* events(): AsyncGenerator<TurnEvent> {
        try {
          const tools: TraceNode[] = [];
          const say = (piece: string): TurnEvent => {
            text += piece;
            return { type: "text-delta", text: piece };
          };
          yield say("Checking. ");
          for (let n = 0; n < calls; n++) {
            const id = `approval-${turn}-${n}`;
            const toolCallId = `call-${turn}-${n}`;
            const pending: TraceNode = {
              kind: "tool-call",
              id: `tool-${turnId}-${n}`,
              name: "deploy",
              status: "pending",
              children: [],
              toolName: "deploy",
              toolCallId,
              input: SECRET_INPUT,
              approval: { id, state: "pending" },
            };
            const request: ApprovalRequest = { id, stepId: "reply", toolName: "deploy", toolCallId, input: SECRET_INPUT };
            const decision = new Promise<{ approved: boolean; reason?: string }>((resolve, reject) => {
              decisions.set(id, resolve);
              signal.addEventListener("abort", () => reject(signal.reason), { once: true });
            });
            requests = [...requests, request];
            yield { type: "run-update", tree: tree(turnId, [...tools, pending], "running") };
            yield { type: "approval-request", request };
            const { approved, reason } = await decision;
            const done: TraceNode = approved
              ? { ...pending, status: "done", output: { ok: true, token: "tok-secret-output" }, approval: { id, state: "approved" } }
              : { ...pending, status: "done", approval: { id, state: "denied", ...(reason !== undefined && { reason }) } };
            tools.push(done);
            yield { type: "run-update", tree: tree(turnId, tools, "running") };
            yield say(approved ? `Deployed ${n + 1}. ` : `Not deployed: ${reason ?? "denied"}. `);
          }
          yield say("Done.");
          yield { type: "run-update", tree: tree(turnId, tools, "done") };
          finish({ text });
        } catch (error) {
          fail(error);
          throw error;
        }
      }

      return {
        result,
        events: events(),
        get requests() {
          return requests;
        },
        decide: (id, decision) => decide(id, decision),
      };
    },
  };
}

function tree(turnId: string, tools: TraceNode[], status: "running" | "done"): TraceNode {
  return {
    kind: "run",
    id: `run-${turnId}`,
    name: "run",
    status,
    children: [
      {
        kind: "step",
        id: `step-${turnId}`,
        name: "reply",
        status,
        partialText: "",
        children: tools,
      },
    ],
  };
}
