// The chat of the worker tests (in the test process and in worker child processes), on a scripted model, with
// its sessions in PostgreSQL (leases of 2 s, so a killed worker's lease runs out soon) and its queue on pg-boss,
// each in a schema of the test's own. Every model call is appended to a log file (`<pid> <step> <input>`), and
// so is every run of the tool (`<pid> tool <input>`), so a test can count calls across processes.
//
// Shapes:
// - "steps" (the default): a durable agent turn of two model steps, "plan" then "reply" (`plain`: not durable);
// - "tool": a durable turn: in a "work" step a first call ("act") asks for the `record` tool, the tool runs, and a
//   second call ("reply") answers in three deltas; a streamed "reply" step then tells the user that answer (a
//   streamed step calls no tools: issue 41; its call is not logged, so the counts are the work step's). The tool
//   needs approval: by the chat's policy (`approval: "policy"`, the default), or by a person
//   (`approval: "person"`: the turn suspends after 300 ms).
import { appendFileSync } from "node:fs";
import { jsonSchema, tool, type ModelMessage } from "ai";
import { Agent, Step, Tool } from "../../index.js";
import { agentResponder, createChat } from "../../chat/index.js";
import { postgresStore } from "../../stores/postgres/postgres-store.js";
import { TEST_DATABASE_URL } from "../../stores/postgres/__fixtures__/postgres-test-db.js";
import { scriptedModel } from "../../testing/index.js";
import type { LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { MockLanguageModelV3 } from "ai/test";
import { pgBossQueue } from "../index.js";

export interface WorkerChatOptions {
  storeSchema: string;
  queueSchema: string;
  log: string;
  shape?: "steps" | "tool";
  /** A chat whose turns are not durable (no checkpoints): a turn whose worker died is left interrupted. */
  plain?: boolean;
  /** Who approves the "tool" shape's call: the chat's policy (default) or a person. */
  approval?: "policy" | "person";
  /** Called as a model call starts, before it is logged (`step`: "plan", "reply" or "act"): a child may hang or die there. */
  beforeModel?: (step: string, input: string) => void | Promise<void>;
  /** Called as a model call starts (after it is logged). */
  onModel?: (step: string, input: string) => void | Promise<void>;
  /** Called after a streamed reply's first delta went out ("tool" shape). */
  midStream?: (step: string, input: string) => void;
}

function lastUser(messages: readonly ModelMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role === "user") return typeof m.content === "string" ? m.content : m.content.map((p) => ("text" in p ? p.text : "")).join("");
  }
  return "";
}

export function workerChat(options: WorkerChatOptions) {
  const store = postgresStore({ connectionString: TEST_DATABASE_URL, schema: options.storeSchema, leaseTtlMs: 2000 });
  const queue = pgBossQueue({ connectionString: TEST_DATABASE_URL, schema: options.queueSchema, takeOverAfterMs: 10_000 });
  const responder = options.shape === "tool" ? toolResponder(options) : stepsResponder(options);
  const toolApproval = options.shape === "tool" && options.approval !== "person" ? { record: () => "approved" as const } : undefined;
  return { chat: createChat({ store, responder, queue, ...(toolApproval ? { toolApproval } : {}) }), store, queue };
}

function stepsResponder(options: WorkerChatOptions) {
  const model = scriptedModel(async ({ options: call }) => {
    const asked = lastUser(call.prompt as unknown as ModelMessage[]);
    const step = asked.startsWith("Plan:") ? "plan" : "reply";
    const input = step === "plan" ? asked.slice("Plan: ".length) : asked.replace(/ \(.*\)$/s, "");
    await options.beforeModel?.(step, input);
    appendFileSync(options.log, `${process.pid} ${step} ${input}\n`);
    await options.onModel?.(step, input);
    return step === "plan" ? `plan for ${input}` : `done: ${input}`;
  });
  return agentResponder({
    id: "worker-test",
    version: "1",
    ...(options.plain === true ? {} : { durable: true as const }),
    render: ({ input }) => (
      <Agent model={model}>
        <Step id="plan" prompt={`Plan: ${input}`} />
        <Step id="reply" prompt={(ctx) => `${input} (${String(ctx.steps.plan)})`} />
      </Agent>
    ),
    reply: (result) => String(result.steps.reply),
  });
}

function toolResponder(options: WorkerChatOptions) {
  const record = tool({
    description: "Records a note",
    inputSchema: jsonSchema<{ note: string }>({ type: "object", properties: { note: { type: "string" } }, required: ["note"] }),
    needsApproval: options.approval === "person",
    execute: async ({ note }) => {
      appendFileSync(options.log, `${process.pid} tool ${note}\n`);
      return `recorded ${note}`;
    },
  });
  const model = scriptedModel(async ({ options: call }) => {
    const prompt = call.prompt as unknown as ModelMessage[];
    const input = lastUser(prompt);
    // The streamed "reply" step repeats the work step's answer (not logged: the counts are the work step's calls).
    if (input.startsWith(TELL)) return input.slice(TELL.length);
    const step = prompt.at(-1)?.role === "tool" ? "reply" : "act";
    await options.beforeModel?.(step, input);
    appendFileSync(options.log, `${process.pid} ${step} ${input}\n`);
    await options.onModel?.(step, input);
    if (step === "act") return { toolCalls: [{ toolName: "record", input: { note: input }, toolCallId: `record-${input.replace(/\W/g, "-")}` }] };
    return { text: ["done", ": ", input], delay: 20 };
  });
  return agentResponder({
    id: "worker-tool-test",
    version: "1",
    durable: options.approval === "person" ? { suspendAfterMs: 300 } : true,
    render: ({ input }) => (
      <Agent model={withMidStream(model, options)}>
        <Tool name="record" value={record} />
        <Step id="work" prompt={input} />
        <Step id="reply" stream prompt={(ctx) => `${TELL}${String(ctx.steps.work)}`} />
      </Agent>
    ),
    reply: (result) => String(result.steps.reply),
    stream: { step: "reply" },
  });
}

/** The streamed "reply" step's prompt, before the "work" step's answer it repeats. */
const TELL = "Tell the user: ";

/** The model, with `midStream` called once a call's first text delta has gone out. */
function withMidStream(model: ReturnType<typeof scriptedModel>, options: WorkerChatOptions) {
  const midStream = options.midStream;
  if (!midStream) return model;
  return new MockLanguageModelV3({
    provider: model.provider,
    modelId: model.modelId,
    doStream: async (call) => {
      const result = await model.doStream(call);
      const input = lastUser(call.prompt as unknown as ModelMessage[]);
      let seen = false;
      const after = new TransformStream<LanguageModelV3StreamPart, LanguageModelV3StreamPart>({
        transform(part, controller) {
          controller.enqueue(part);
          if (part.type === "text-delta" && !seen) {
            seen = true;
            // The delta is handed on first; the next one is 20 ms away.
            setTimeout(() => midStream("reply", input), 5);
          }
        },
      });
      return { ...result, stream: result.stream.pipeThrough(after) };
    },
  });
}
