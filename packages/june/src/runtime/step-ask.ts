import { randomUUID } from "node:crypto";
import { QUESTION_TOOL } from "./questions.js";
import { CanceledError, QuestionDeclinedError } from "./errors.js";
import { stepKey, type RunState } from "./run-state.js";
import { openApproval, type StepCall } from "./step-call.js";
import type { CheckpointAsk, CheckpointRequest, RunContext } from "./types.js";

/**
 * `ctx.ask` of one run of a `run` step: each call asks a person through the run's approvals, as `<AskUser />`'s
 * `ask_user` call does (a request with `question`, its `ask_user` row under the step's node, its approval span),
 * and resolves to the answer. In a run that saves checkpoints the question is announced only once the checkpoint
 * lists it, and each answer is kept there by ask order: the step, run again from its start on resume, gets an
 * answered ask's answer back without asking, and a pending one opens again with its request id.
 */
export function stepAsk(run: RunState, stepId: string, stepNodeId: string, signal: AbortSignal): RunContext["ask"] {
  const key = stepKey(run, stepId);
  const checkpoints = run.checkpoints;
  const restored = checkpoints?.takeWaiting(key);
  const asks: CheckpointAsk[] = (restored?.asks ?? []).map((ask) => ({ ...ask }));
  // Requests this step reopens on resume: `restored` resolves once they are open again.
  const toReopen = new Set(asks.filter((ask) => !ask.answered).map((ask) => ask.id));
  if (restored && toReopen.size === 0) checkpoints!.markRestored();
  const step: StepCall = { run, stepId: key, stepNodeId, signal, toolNodes: new Map(), askTools: new Set([QUESTION_TOOL]) };
  let order = 0;

  const save = async (): Promise<void> => {
    if (!checkpoints?.saving) return;
    const requests: CheckpointRequest[] = asks
      .filter((ask) => !ask.answered)
      .map((ask) => ({ id: ask.id, toolName: QUESTION_TOOL, toolCallId: ask.id, input: { question: ask.question } }));
    await checkpoints.stepWaiting(key, { messages: [], requests, calls: 0, asks: asks.map((ask) => ({ ...ask })) });
  };

  return async (question: string): Promise<unknown> => {
    if (typeof question !== "string" || question.trim() === "") {
      throw new TypeError(`ctx.ask(question) in step "${stepId}": question must be a non-empty string, got ${JSON.stringify(question)}`);
    }
    signal.throwIfAborted();
    const index = order++;
    const known = asks[index];
    if (known?.answered) return known.answer;
    const id = known?.id ?? `ask_${randomUUID()}`;
    if (!known) {
      asks[index] = { id, question };
      await save();
      signal.throwIfAborted();
    }
    const toolCall = { toolCallId: id, toolName: QUESTION_TOOL, input: { question } };
    // Its span first: an observer may answer it as soon as `openApproval` commits the pending row.
    run.spans?.questionOpened(stepNodeId, id, QUESTION_TOOL);
    const { wait } = openApproval(step, id, toolCall);
    if (toReopen.delete(id) && toReopen.size === 0) checkpoints!.markRestored();
    const outcome = await wait;
    const nodeId = step.toolNodes.get(id)!;
    switch (outcome.kind) {
      case "approved": {
        const answer = run.approvals.takeAnswer(key, id);
        // Internal invariant: a question settles approved only through `answer`, which stores the value.
        if (!answer) throw new Error(`june: question ${id} settled without an answer`);
        run.trace.update(nodeId, { status: "done", endedAt: Date.now(), output: answer.value });
        asks[index] = { id, question, answered: true, answer: answer.value };
        await save();
        return answer.value;
      }
      case "denied":
        throw new QuestionDeclinedError({ stepId, requestId: id, ...(outcome.reason !== undefined ? { reason: outcome.reason } : {}) });
      case "withdrawn":
        throw signal.aborted ? signal.reason : new CanceledError("The question was withdrawn");
      default: {
        const unreachable: never = outcome;
        throw new Error(`june: unknown approval outcome ${String(unreachable)}`);
      }
    }
  };
}
