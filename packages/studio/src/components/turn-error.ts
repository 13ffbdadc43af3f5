import type { TurnError } from "../api/types";

/**
 * A failed turn's error said for a person: what happened, in a sentence, and what to do when there is
 * something to do. The error as the server sent it (`name: message`) stays available as the detail.
 */
export function describeTurnError(error: TurnError | undefined): string {
  if (!error) return "The turn failed.";
  const text = `${error.name} ${error.message}`;
  const attempts = /Failed after (\d+) attempts/i.exec(error.message)?.[1];
  const retried = attempts ? ` (tried ${attempts} times)` : "";
  if (/ECONNREFUSED|Cannot connect to API|fetch failed|ENOTFOUND|EAI_AGAIN/i.test(text)) {
    return `The model's server could not be reached${retried}. Check that it is running, or the base URL.`;
  }
  if (/\b401\b|\b403\b|API key|api[_-]?key|authentication|unauthori[sz]ed/i.test(text)) {
    return "The model provider refused the API key. Check the key in the environment `june studio` runs in.";
  }
  if (/\b429\b|rate.?limit|quota|RESOURCE_EXHAUSTED/i.test(text)) {
    return `The model provider is limiting requests${retried}. Wait a moment and try again.`;
  }
  if (/overloaded|\b5\d\d\b|UNAVAILABLE/i.test(text)) {
    return `The model provider had a problem${retried}. Try again in a moment.`;
  }
  if (/timeout|timed out/i.test(text)) return "The model took too long to answer.";
  if (attempts) return `The model call failed after ${attempts} attempts.`;
  return "The turn failed.";
}
