// A durable agent chat for the durable-turn tests (in process and in child processes): a "plan" step, a "work"
// step whose model asks to run `deploy` (needs approval) and then answers from its result, and a streamed
// "reply" step that tells the user that answer (a streamed step calls no tools: issue 41). The model is scripted
// from what it is sent, so a resumed turn gets the same answers; every model call and every execution of the
// tool is appended to a log file, so a test can count them across processes.
import { appendFileSync } from "node:fs";
import { jsonSchema, tool, type FlexibleSchema, type ModelMessage } from "ai";
import { Agent, Step, Tool } from "../../index.js";
import { agentResponder, createChat, type ChatStore, type DurableOptions } from "../index.js";
import type { Guardrails } from "../../guardrails/types.js";
import type { ToolApprovalPolicy } from "../../runtime/tool-approval.js";
import { scriptedModel, type ScriptEntry } from "../../testing/index.js";

export interface DurableChatOptions {
  store: ChatStore;
  /** Where model calls (`model plan`, `model work-ask`, `model work-answer`, `model reply`) and tool executions (`deploy <env> <secret>`) are logged, a line each. */
  log?: string;
  durable?: true | DurableOptions;
  /** Leave the "reply" step unstreamed: the turn's reply is sent whole. */
  unstreamed?: boolean;
  /** Drop the "work" and "reply" steps (a workflow changed since its checkpoint). */
  withoutWork?: boolean;
  /** Called when the tool executes, before it returns (a test may kill the process there). */
  onExecute?: () => void | Promise<void>;
  /** Called when the model is asked for the answer after the tool's outcome, before it answers. */
  onAnswer?: () => void | Promise<void>;
  /** The input of the model's `deploy` call (default `{ env: "prod", token: SECRET }`). */
  modelInput?: Record<string, unknown>;
  /** `deploy`'s input schema (default: a JSON Schema of `{ env: string, token: string }`, both required). */
  inputSchema?: FlexibleSchema<{ env: string; token: string }>;
  /** The chat's `toolApproval` and `guardrails`. */
  toolApproval?: ToolApprovalPolicy;
  guardrails?: Guardrails;
}

/** The secret the tool's input carries: no byte of it may stay in the store after the turn. */
export const SECRET = "tok-8c1e5d0f-deploy-input";

/** The "reply" step's prompt, before the "work" step's answer it repeats. */
const TELL = "Tell the user: ";

function lastText(messages: readonly ModelMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role === "user") return typeof m.content === "string" ? m.content : m.content.map((p) => ("text" in p ? p.text : "")).join("");
  }
  return "";
}

export function durableChat(options: DurableChatOptions) {
  const log = (line: string) => {
    if (options.log) appendFileSync(options.log, `${line}\n`);
  };
  const model = scriptedModel(async ({ options: call }): Promise<ScriptEntry> => {
    const prompt = call.prompt as unknown as ModelMessage[];
    const asked = lastText(prompt);
    if (asked.startsWith("Plan:")) {
      log("model plan");
      return "Plan: deploy the docs.";
    }
    if (asked.startsWith(TELL)) {
      log("model reply");
      return asked.slice(TELL.length);
    }
    const toolMessages = prompt.filter((m) => m.role === "tool");
    const outcome = toolMessages
      .flatMap((m) => (Array.isArray(m.content) ? m.content : []))
      .find((p) => p.type === "tool-result") as { output?: { type: string; value?: unknown } } | undefined;
    if (!outcome) {
      log("model work-ask");
      return { toolCalls: [{ toolName: "deploy", input: options.modelInput ?? { env: "prod", token: SECRET }, toolCallId: "call-deploy" }] };
    }
    log("model work-answer");
    await options.onAnswer?.();
    const denied = outcome.output?.type === "execution-denied";
    return denied ? "Not deployed." : `Deployed: ${JSON.stringify(outcome.output?.value)}.`;
  });
  const deploy = tool({
    description: "Deploy the docs",
    inputSchema:
      options.inputSchema ??
      jsonSchema<{ env: string; token: string }>({
        type: "object",
        properties: { env: { type: "string" }, token: { type: "string" } },
        required: ["env", "token"],
      }),
    needsApproval: true,
    execute: async ({ env, token }) => {
      log(`deploy ${env} ${token}`);
      await options.onExecute?.();
      return `live on ${env}`;
    },
  });
  const responder = agentResponder({
    id: "deployer",
    version: "1",
    durable: options.durable ?? true,
    render: ({ input, messages }) => (
      <Agent model={model}>
        <Tool name="deploy" value={deploy} />
        <Step id="plan" prompt={`Plan: ${input}`} />
        {options.withoutWork ? null : (
          <>
            <Step id="work" prompt={(ctx) => [...messages, { role: "user", content: `${input} (${String(ctx.steps.plan)})` }]} />
            <Step id="reply" stream={!options.unstreamed} prompt={(ctx) => `${TELL}${String(ctx.steps.work)}`} />
          </>
        )}
      </Agent>
    ),
    reply: (result) => String(result.steps.reply ?? result.steps.plan),
    stream: options.withoutWork || options.unstreamed ? undefined : { step: "reply" },
  });
  const policies = { ...(options.toolApproval && { toolApproval: options.toolApproval }), ...(options.guardrails && { guardrails: options.guardrails }) };
  return { chat: createChat({ store: options.store, responder, ...policies }), model };
}
