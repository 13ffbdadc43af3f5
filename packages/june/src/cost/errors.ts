import { JuneError } from "../errors/june-error.js";
import type { BudgetLimit, Spent } from "./budget.js";

/**
 * What was spent reached a budget as the next model call would start: the run (or the turn) stops there, before
 * that call, and never cuts a call that is streaming. `scope` says which budget (`turn` or `session`), `spent`
 * what that scope had spent, `budget` its limit.
 */
export class BudgetExceededError extends JuneError {
  static override readonly marker: symbol = Symbol.for("june.BudgetExceededError");
  override readonly name = "BudgetExceededError";
  readonly scope: "turn" | "session";
  readonly spent: Spent;
  readonly budget: BudgetLimit;
  constructor(options: { scope: "turn" | "session"; spent: Spent; budget: BudgetLimit }) {
    super(budgetMessage(options));
    this.scope = options.scope;
    this.spent = options.spent;
    this.budget = options.budget;
  }
}

function budgetMessage({ scope, spent, budget }: { scope: string; spent: Spent; budget: BudgetLimit }): string {
  const parts: string[] = [];
  if (budget.usd !== undefined) parts.push(`$${round(spent.usd ?? 0)} of $${budget.usd}`);
  if (budget.tokens !== undefined) parts.push(`${spent.tokens} of ${budget.tokens} tokens`);
  return `The ${scope} budget is spent (${parts.join(", ")}): stopped before the next model call`;
}

function round(usd: number): string {
  return usd >= 1 ? usd.toFixed(2) : String(Number(usd.toPrecision(3)));
}
