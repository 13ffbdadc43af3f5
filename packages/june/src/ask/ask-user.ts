import { jsonSchema, tool, type Tool as AITool } from "ai";
import { asQuestionTool, QUESTION_TOOL } from "../runtime/questions.js";
import { toolSource, type ToolSourceComponent } from "../runtime/tool-source.js";

/**
 * The name of the tool `<AskUser />` gives the model, and of a `ctx.ask` question's row: the one name the
 * layers above the runtime (the turn, `/ui-chat`) read a question by.
 */
export const ASK_USER_TOOL: typeof QUESTION_TOOL = QUESTION_TOOL;

/** Props of `<AskUser>`. */
export interface AskUserProps {
  /** What the model is told the tool is for (default: ask the user a question and wait for the answer). */
  description?: string;
}

/**
 * Gives the model of the steps it serves (a child of `<Agent>` or `<Step>`, like `<Tool>`) a tool named
 * `ask_user` with `{ question: string }`. A call asks a person and waits like an approval: the turn emits an
 * `input-request` (`{ id, question }`), `turn.answer(id, value)` answers it, and the answer is the tool's
 * result, what the model sees. A cancel withdraws the question; a durable turn suspends on it and resumes,
 * in any process, with the answer. The journal keeps that the question was answered, never the answer.
 * A tool source (`toolSource()`), like `<McpTools>`.
 *
 * @example
 * <Agent model={model}>
 *   <AskUser />
 *   <Step id="plan" prompt={input} />
 * </Agent>
 */
export const AskUser: ToolSourceComponent<AskUserProps> = toolSource<AskUserProps, string | undefined>({
  name: "AskUser",
  check(props) {
    if (props.description !== undefined && typeof props.description !== "string") throw new TypeError("`description` must be a string");
    return props.description;
  },
  tools: (description) => ({ [ASK_USER_TOOL]: askUserTool(description) }),
});

/** The `ask_user` tool: it asks for approval (a question waits like one); the step answers it from the registry. */
export function askUserTool(description?: string): AITool<any, any> {
  const value = tool({
    description: description ?? "Ask the user a question and wait for their answer. Use it when you need information only the user has.",
    inputSchema: jsonSchema<{ question: string }>({
      type: "object",
      properties: { question: { type: "string", description: "The question, as the user will read it" } },
      required: ["question"],
      additionalProperties: false,
    }),
    needsApproval: true,
    execute: async (): Promise<unknown> => {
      // Internal invariant: a step replaces this execute with one that returns the person's answer.
      throw new Error("june: ask_user ran outside a step");
    },
  } as AITool<any, any>);
  return asQuestionTool(value);
}
