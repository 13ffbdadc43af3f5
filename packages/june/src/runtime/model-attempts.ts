import type { LanguageModel } from "ai";

/** What `observeAttempts` reports: each request the AI SDK makes for one call, and each that failed. */
export interface AttemptHooks {
  /** A request starts; `attempt` counts from 1 (2 and on are the AI SDK's retries). */
  onAttempt(attempt: number, at: number): void;
  /** A request failed before its stream opened: the AI SDK retries it when it is retryable and tries remain. */
  onAttemptError(attempt: number, error: unknown, at: number): void;
}

/**
 * The model, seen through its `doStream`: the AI SDK's retries (`maxRetries`) call `doStream` again for each
 * attempt, so a wrapper around it is the one place every attempt and every failure shows, as it happens. The
 * model is otherwise untouched (same `specificationVersion`, `provider`, `modelId`; its methods run on the
 * model itself). A gateway id string has no `doStream` to wrap and is returned as it is.
 */
export function observeAttempts<M extends LanguageModel>(model: M, hooks: AttemptHooks): M {
  if (typeof model !== "object" || model === null || typeof (model as { doStream?: unknown }).doStream !== "function") return model;
  let attempt = 0;
  const target = model as unknown as { doStream: (options: unknown) => PromiseLike<unknown> };
  const doStream = async (options: unknown) => {
    const current = ++attempt;
    hooks.onAttempt(current, Date.now());
    try {
      return await target.doStream(options);
    } catch (error) {
      hooks.onAttemptError(current, error, Date.now());
      throw error;
    }
  };
  return new Proxy(model as object, {
    get(object, key) {
      if (key === "doStream") return doStream;
      const value = Reflect.get(object, key, object);
      // Methods run on the model, not the proxy (a class with private fields would refuse the proxy).
      return typeof value === "function" ? value.bind(object) : value;
    },
  }) as M;
}
