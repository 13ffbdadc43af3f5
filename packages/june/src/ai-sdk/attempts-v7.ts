import type { AttemptHooks } from "./attempts-v6.js";

/** The part of AI SDK 7's `Telemetry` integration interface June implements (its types are not AI SDK 6's). */
export interface AttemptIntegration {
  onLanguageModelCallStart(): void;
  executeLanguageModelCall<T>(options: { execute: () => PromiseLike<T> }): Promise<T>;
}

/**
 * An AI SDK 7 telemetry integration that reports each request of one `streamText` call to `hooks`. AI SDK 7
 * runs `retry(() => streamLanguageModelCall(...))`: every attempt notifies `onLanguageModelCallStart`, then
 * runs the provider request through the integrations' `executeLanguageModelCall`, where a request that fails
 * rejects before `retry` decides to try again. (AI SDK 6 has no such hook; `attempts-v6.ts` reads its spans.)
 */
export function attemptIntegration(hooks: AttemptHooks): AttemptIntegration {
  let attempt = 0;
  return {
    onLanguageModelCallStart() {
      hooks.onAttempt(++attempt, Date.now());
    },
    async executeLanguageModelCall<T>({ execute }: { execute: () => PromiseLike<T> }): Promise<T> {
      const current = attempt;
      try {
        return await execute();
      } catch (error) {
        hooks.onAttemptError(current, error, Date.now());
        throw error;
      }
    },
  };
}
