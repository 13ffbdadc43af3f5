import { BudgetExceededError } from "./errors.js";

/** A limit on what is spent: USD (from the prices), tokens (input + output, as the provider reports them), or both. */
export interface BudgetLimit {
  readonly usd?: number;
  readonly tokens?: number;
}

/**
 * Budgets of `createChat` and `start()`: `turn` limits one turn (a `start()` run), `session` a session's turns
 * together. Checked as each model call would start, never during one: a call in flight always finishes.
 */
export interface Budget {
  readonly turn?: BudgetLimit;
  readonly session?: BudgetLimit;
}

/** What was spent: tokens, and USD (undefined while a model's price is not known). */
export interface Spent {
  readonly tokens: number;
  readonly usd?: number;
}

export const NOTHING_SPENT: Spent = Object.freeze({ tokens: 0, usd: 0 });

/** Checks a `budget` option: a clear error naming what was wrong. */
export function checkBudget(budget: unknown, where: string): Budget | undefined {
  if (budget === undefined) return undefined;
  if (typeof budget !== "object" || budget === null || Array.isArray(budget)) {
    throw new TypeError(`june: ${where} budget must be an object { turn?, session? }, each { usd?, tokens? }`);
  }
  for (const key of Object.keys(budget)) {
    if (key !== "turn" && key !== "session") throw new TypeError(`june: ${where} budget has an unknown key "${key}" (known: turn, session)`);
    const limit = (budget as Record<string, unknown>)[key];
    if (limit === undefined) continue;
    if (typeof limit !== "object" || limit === null) throw new TypeError(`june: ${where} budget.${key} must be { usd?, tokens? }`);
    for (const [name, value] of Object.entries(limit)) {
      if (name !== "usd" && name !== "tokens") throw new TypeError(`june: ${where} budget.${key} has an unknown key "${name}" (known: usd, tokens)`);
      if (value !== undefined && (typeof value !== "number" || !Number.isFinite(value) || value < 0)) {
        throw new TypeError(`june: ${where} budget.${key}.${name} must be a number, 0 or more (got ${String(value)})`);
      }
    }
  }
  return budget as Budget;
}

/** Two amounts spent, added up; USD at known prices (a part whose price is not known adds its tokens only). */
export function addSpent(a: Spent, b: Spent): Spent {
  return { tokens: a.tokens + b.tokens, usd: (a.usd ?? 0) + (b.usd ?? 0) };
}

/**
 * Throws `BudgetExceededError` when what was spent has reached a budget: the turn's (`turn`), or the session's
 * (`before` the turn plus `turn`). A USD budget is judged on known costs: while a model's price is not known,
 * only its tokens count against a `tokens` budget.
 */
export function assertWithinBudget(budget: Budget, turn: Spent, before: Spent = NOTHING_SPENT): void {
  if (budget.turn && reached(budget.turn, turn)) throw new BudgetExceededError({ scope: "turn", spent: turn, budget: budget.turn });
  if (budget.session) {
    const session = addSpent(before, turn);
    if (reached(budget.session, session)) throw new BudgetExceededError({ scope: "session", spent: session, budget: budget.session });
  }
}

function reached(limit: BudgetLimit, spent: Spent): boolean {
  if (limit.tokens !== undefined && spent.tokens >= limit.tokens) return true;
  return limit.usd !== undefined && spent.usd !== undefined && spent.usd >= limit.usd;
}
