/** A failure in words: what happened, and what to do about it when there is something to do. */
interface ErrorWords {
  cause: string;
  advice?: string;
}

/**
 * A model call's failure said for a person: what happened, in a sentence, and what to do when there is
 * something to do. Takes the error as rows and the chat API carry it (`Name: message`, or its two parts);
 * the raw text stays available to fold under the sentence. `undefined` when the error is none of the
 * failures a person can act on (the caller then says something general).
 */
export function describeModelError(error: string | { name: string; message: string }): string | undefined {
  const words = errorWords(error);
  return words && (words.advice ? `${words.cause} ${words.advice}` : words.cause);
}

/**
 * What went wrong with one request, without the advice (`describeModelError` has it): for a request the AI
 * SDK is about to retry, where there is nothing to do yet.
 */
export function describeModelErrorCause(error: string | { name: string; message: string }): string | undefined {
  return errorWords(error)?.cause;
}

/**
 * A 5xx from the provider, however it reached the error: the status, its text when the response had no JSON
 * body ("Internal Server Error", "Bad Gateway"…), or the provider's own words from the body, which the AI SDK
 * makes the message (OpenAI's "The server had an error…", Anthropic's `api_error`/`overloaded_error`,
 * Google's `INTERNAL`/`UNAVAILABLE`). One list, so a 500 and a 503 read the same.
 */
const PROVIDER_FAILED =
  /overloaded|\b5\d\d\b|UNAVAILABLE|internal server error|\binternal error\b|bad gateway|gateway time-?out|server_error|\bapi_error\b|server had an error/i;
/** Google's status for a 500, in capitals (lower case, "internal" is an ordinary word). */
const GOOGLE_INTERNAL = /\bINTERNAL\b/;

function errorWords(error: string | { name: string; message: string }): ErrorWords | undefined {
  const text = typeof error === "string" ? error : `${error.name} ${error.message}`;
  const attempts = /Failed after (\d+) attempts/i.exec(text)?.[1];
  const retried = attempts ? ` (tried ${attempts} times)` : "";
  if (/ECONNREFUSED|Cannot connect to API|fetch failed|ENOTFOUND|EAI_AGAIN/i.test(text)) {
    return { cause: `The model's server could not be reached${retried}.`, advice: "Check that it is running, or the base URL." };
  }
  if (/\b401\b|\b403\b|API key|api[_-]?key|authentication|unauthori[sz]ed/i.test(text)) {
    return { cause: "The model provider refused the API key.", advice: "Check the key in the environment `june studio` runs in." };
  }
  if (/\b429\b|rate.?limit|quota|RESOURCE_EXHAUSTED/i.test(text)) {
    return { cause: `The model provider is limiting requests${retried}.`, advice: "Wait a moment and try again." };
  }
  if (PROVIDER_FAILED.test(text) || GOOGLE_INTERNAL.test(text)) {
    return { cause: `The model provider had a problem${retried}.`, advice: "Try again in a moment." };
  }
  if (/timeout|timed out/i.test(text)) return { cause: "The model took too long to answer." };
  if (attempts) return { cause: `The model call failed after ${attempts} attempts.` };
  return undefined;
}
