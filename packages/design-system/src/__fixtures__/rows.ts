import type { ChatTraceRow } from "../trace/types.js";

/**
 * Rows of every kind in every state, as `projectChatTrace` makes them: the component tests and the visual
 * check in Chromium draw these.
 */
const model = { provider: "openai", modelId: "gpt-5-mini" };
const usage = { inputTokens: 812, outputTokens: 430, totalTokens: 1242 };

export const runningStep: ChatTraceRow = {
  kind: "step",
  id: "step-research",
  stepId: "research",
  title: "Running research",
  status: "running",
  text: "Looking up the release notes for",
  children: [
    { kind: "model", id: "model-1", title: "Calling gpt-5-mini", status: "running", model, children: [] },
    {
      kind: "tool",
      id: "tool-fetch",
      toolName: "fetch",
      toolCallId: "call-1",
      title: "Calling fetch",
      status: "running",
      input: '{"url":"https://example.com/notes"}',
      children: [],
    },
  ],
};

export const waitingStep: ChatTraceRow = {
  kind: "step",
  id: "step-ship",
  stepId: "ship",
  title: "Running ship",
  status: "running",
  children: [
    { kind: "model", id: "model-2", title: "gpt-5-mini answered", status: "done", model, usage, finishReason: "tool-calls", children: [] },
    {
      kind: "tool",
      id: "tool-deploy",
      toolName: "deploy",
      toolCallId: "call-2",
      title: "deploy needs approval",
      status: "pending",
      input: '{"env":"prod"}',
      approval: { state: "pending" },
      children: [
        {
          kind: "approval",
          id: "approval-deploy",
          approvalId: "approval-1",
          toolName: "deploy",
          title: "Run deploy?",
          status: "pending",
          input: '{"env":"prod"}',
          children: [],
        },
      ],
    },
  ],
};

export const doneStep: ChatTraceRow = {
  kind: "step",
  id: "step-draft",
  stepId: "draft",
  title: "draft finished",
  status: "done",
  text: "Three headlines: Ship faster. Ship calmer. Ship June.",
  model,
  usage,
  children: [
    { kind: "model", id: "model-3", title: "gpt-5-mini answered", status: "done", model, usage, finishReason: "stop", children: [] },
    {
      kind: "tool",
      id: "tool-approved",
      toolName: "publish",
      toolCallId: "call-3",
      title: "publish ran",
      status: "done",
      input: '{"draft":"Ship June"}',
      output: '"published at /blog/ship-june"',
      approval: { state: "approved" },
      children: [],
    },
    {
      kind: "tool",
      id: "tool-denied",
      toolName: "deploy",
      toolCallId: "call-4",
      title: "deploy denied",
      status: "done",
      input: '{"env":"prod"}',
      approval: { state: "denied", reason: "Only non-prod deploys from chat" },
      children: [],
    },
  ],
};

export const failedStep: ChatTraceRow = {
  kind: "step",
  id: "step-fetch",
  stepId: "fetch",
  title: "fetch failed",
  status: "error",
  error: "FetchError: connect ECONNREFUSED 127.0.0.1:9",
  children: [
    {
      kind: "model",
      id: "model-4",
      title: "gpt-5-mini failed",
      status: "error",
      model,
      error: "APICallError: rate limited",
      children: [],
    },
    {
      kind: "tool",
      id: "tool-failed",
      toolName: "fetch",
      toolCallId: "call-5",
      title: "fetch failed",
      status: "error",
      input: '{"url":"http://127.0.0.1:9"}',
      error: "FetchError: connect ECONNREFUSED 127.0.0.1:9",
      children: [],
    },
  ],
};

export const canceledStep: ChatTraceRow = {
  kind: "step",
  id: "step-review",
  stepId: "review",
  title: "review canceled",
  status: "error",
  canceled: true,
  error: "AbortError: the turn was canceled",
  children: [
    {
      kind: "model",
      id: "model-5",
      title: "gpt-5-mini canceled",
      status: "error",
      canceled: true,
      model,
      error: "AbortError: the turn was canceled",
      children: [],
    },
  ],
};

/** One of each, in the order a page draws them. */
/** A model chat's call (no workflow: a top row) while the AI SDK retries it. */
export const retryingModel: ChatTraceRow = {
  kind: "model",
  id: "model:model-call-1",
  title: "Retrying gpt-5-mini (attempt 2)",
  status: "running",
  model,
  attempt: 2,
  startedAt: 1_700_000_000_000,
  prompt: [
    { role: "system", text: "You explain software briefly and plainly." },
    { role: "user", text: "What does a lockfile do?" },
  ],
  failedAttempts: [
    { attempt: 1, startedAt: 1_700_000_000_000, endedAt: 1_700_000_000_420, error: "AI_APICallError: Overloaded" },
  ],
  children: [],
};

/** A model chat's call that answered: its prompt (with earlier messages left out) and its response. */
export const answeredModel: ChatTraceRow = {
  kind: "model",
  id: "model:model-call-2",
  title: "gpt-5-mini answered",
  status: "done",
  model,
  usage,
  finishReason: "stop",
  startedAt: 1_700_000_000_000,
  endedAt: 1_700_000_001_900,
  promptOmitted: 6,
  prompt: [
    { role: "user", text: "And a package manager?" },
    { role: "assistant", text: "It installs packages and resolves their versions." },
    { role: "user", text: "Which one should I use? My key is [redacted]" },
  ],
  response: [{ role: "assistant", text: "Use the one your team already uses; npm ships with Node." }],
  children: [],
};

export const everyRow: ChatTraceRow[] = [runningStep, waitingStep, doneStep, failedStep, canceledStep];

/** A model chat's rows (no workflow): its calls are the top rows. */
export const modelChatRows: ChatTraceRow[] = [retryingModel, answeredModel];
