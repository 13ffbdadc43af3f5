import type { ModelMessage, ToolSet } from "ai";

/** Marks a tool of June's own whose call ends the step that made it (a team's same-turn `handoff`). */
const stepEndingMarker: unique symbol = Symbol.for("june.stepEndingTool");

/**
 * Marks `value` so that a model step that calls it stops there: the call runs, and the step ends with the text
 * of the model call that made it, with no further model call (the AI SDK's `stopWhen: hasToolCall(name)`, for
 * one of June's own tools). A team's `handoff` is one when the new agent answers in the same turn.
 */
export function endsStep<T extends object>(value: T): T {
  return Object.assign(value, { [stepEndingMarker]: true });
}

/**
 * True when the last model call in `messages` called a tool of `tools` marked by `endsStep`, and the call ran
 * (its result is not an error: a call the AI SDK refused, its input invalid, leaves the model to try again).
 */
export function calledStepEndingTool(messages: readonly ModelMessage[], tools: ToolSet): boolean {
  const results = new Map<string, string>();
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role === "tool") {
      for (const part of message.content) if (part.type === "tool-result") results.set(part.toolCallId, part.output.type);
      continue;
    }
    if (message.role !== "assistant" || typeof message.content === "string") return false;
    return message.content.some(
      (part) =>
        part.type === "tool-call" &&
        (tools[part.toolName] as Record<symbol, unknown> | undefined)?.[stepEndingMarker] === true &&
        RAN.has(results.get(part.toolCallId) ?? ""),
    );
  }
  return false;
}

/** A tool result's output types for a call that ran (not `error-text`, `error-json`, `execution-denied`). */
const RAN = new Set(["text", "json", "content"]);
