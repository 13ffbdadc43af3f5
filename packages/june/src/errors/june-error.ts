const marker = Symbol.for("june.error");

/**
 * The base of every error June throws. `JuneError.isInstance(e)` works across bundles and copies of
 * the package, where `instanceof` may not.
 */
export class JuneError extends Error {
  private readonly [marker] = true;
  override readonly name: string = "JuneError";

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
  }

  /** True when `error` is a June error (of this class or a subclass, matched by name for subclasses). */
  static isInstance(error: unknown): error is JuneError {
    return typeof error === "object" && error !== null && (error as Record<symbol, unknown>)[marker] === true;
  }

  /** Matches a subclass by its stable `name`, safe across bundles. */
  static hasName<T extends JuneError>(error: unknown, name: string): error is T {
    return JuneError.isInstance(error) && error.name === name;
  }
}
