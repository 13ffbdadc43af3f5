import { describeModelError } from "june-design-system";
import type { TurnError } from "../api/types";

/**
 * A failed turn's error said for a person (the same words as its model row's, `describeModelError`), or
 * "The turn failed." when it is none of the failures a person can act on. The error as the server sent it
 * (`name: message`) stays available as the detail.
 */
export function describeTurnError(error: TurnError | undefined): string {
  // A budget's own words say which budget, what was spent and that nothing was cut.
  if (error?.name === "BudgetExceededError") return error.message;
  return (error && describeModelError(error)) ?? "The turn failed.";
}
