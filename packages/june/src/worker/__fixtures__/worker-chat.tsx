// The chat of the worker tests (in the test process and in worker child processes): a durable agent chat of
// two steps, "plan" then "reply" (or, `plain`, the same turns not durable), on a scripted model, with its sessions in PostgreSQL (leases of 2 s, so a
// killed worker's lease runs out soon) and its queue on pg-boss, each in a schema of the test's own. Every
// model call is appended to a log file (`<pid> <step> <input>`), so a test can count calls across processes.
import { appendFileSync } from "node:fs";
import type { ModelMessage } from "ai";
import { Agent, Step } from "../../index.js";
import { agentResponder, createChat } from "../../chat/index.js";
import { postgresStore } from "../../stores/postgres/postgres-store.js";
import { TEST_DATABASE_URL } from "../../stores/postgres/__fixtures__/postgres-test-db.js";
import { scriptedModel } from "../../testing/index.js";
import { pgBossQueue } from "../index.js";

export interface WorkerChatOptions {
  storeSchema: string;
  queueSchema: string;
  log: string;
  /** A chat whose turns are not durable (no checkpoints): a turn whose worker died is left interrupted. */
  plain?: boolean;
  /** Called as a model call starts (`step` is "plan" or "reply"): a child may print and hang there. */
  onModel?: (step: string, input: string) => void | Promise<void>;
}

function lastUser(messages: readonly ModelMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role === "user") return typeof m.content === "string" ? m.content : m.content.map((p) => ("text" in p ? p.text : "")).join("");
  }
  return "";
}

export function workerChat(options: WorkerChatOptions) {
  const model = scriptedModel(async ({ options: call }) => {
    const asked = lastUser(call.prompt as unknown as ModelMessage[]);
    const step = asked.startsWith("Plan:") ? "plan" : "reply";
    const input = step === "plan" ? asked.slice("Plan: ".length) : asked.replace(/ \(.*\)$/s, "");
    appendFileSync(options.log, `${process.pid} ${step} ${input}\n`);
    await options.onModel?.(step, input);
    return step === "plan" ? `plan for ${input}` : `done: ${input}`;
  });
  const responder = agentResponder({
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
  const store = postgresStore({ connectionString: TEST_DATABASE_URL, schema: options.storeSchema, leaseTtlMs: 2000 });
  const queue = pgBossQueue({ connectionString: TEST_DATABASE_URL, schema: options.queueSchema, takeOverAfterMs: 10_000 });
  return { chat: createChat({ store, responder, queue }), store, queue };
}
