import type { ContextBuilder } from "../types.js";

/**
 * Set (non-enumerable, `true`) on a built-in context builder that only reads what it is given (the history and
 * the entries): no store read, no model call (`fullContext`, `recentTurns`, `tokenBudget`; not
 * `summarizedContext`). `tokenBudget({ model })` without `maxTokens` awaits one thing more, the catalog's file
 * of the model's provider, imported once per process. A turn may build such a context before it holds the session's lease, from the session
 * as this process knows it, and then take the lease and journal its `turn-start` in one store call
 * (`ChatStore.acquireTurnAndAppend`); when the session turns out busy or moved on, that context is dropped and
 * built again under the lease, as for any other builder. A flag, not a name: a builder of the user's that is
 * called the same is not trusted with it.
 */
const historyOnly: unique symbol = Symbol.for("june.context.historyOnly");

/** Marks a builder as reading only what it is given (see `historyOnly`). Returns it. */
export function markHistoryOnly<T extends ContextBuilder>(builder: T): T {
  Object.defineProperty(builder, historyOnly, { value: true });
  return builder;
}

/** True for a builder marked by `markHistoryOnly`. */
export function isHistoryOnly(builder: ContextBuilder): boolean {
  return (builder as { [historyOnly]?: unknown })[historyOnly] === true;
}
