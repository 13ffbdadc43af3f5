import type { Tool as AITool } from "ai";

/**
 * The tool name of a question a person answers: `ctx.ask`'s rows, and the tool `<AskUser />` gives the model
 * (exported as `ASK_USER_TOOL` by `ask/`, where the layers above the runtime read it).
 */
export const QUESTION_TOOL = "ask_user";

/** Marks a question tool: a step answers its calls with a person's answer, not with an `execute`. */
const questionMarker: unique symbol = Symbol.for("june.askUser");

/** `value` marked as a question tool: its calls ask a person (`request.question`) and the answer is the result. */
export function asQuestionTool(value: AITool<any, any>): AITool<any, any> {
  return Object.assign(value, { [questionMarker]: true });
}

/** True for a question tool (`<AskUser />`'s). */
export function isQuestionTool(value: unknown): boolean {
  return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[questionMarker] === true;
}

/** The question of a question tool call's input, as a string. */
export function questionOf(input: unknown): string {
  const question = (input as { question?: unknown } | null)?.question;
  return typeof question === "string" ? question : JSON.stringify(question ?? "");
}
