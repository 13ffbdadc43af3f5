const marker = Symbol.for("june.error");

/**
 * The base of every error June throws. `JuneError.isInstance(e)` works across bundles and copies of
 * the package, where `instanceof` may not.
 */
export class JuneError extends Error {
  /** The cross-bundle marker `isInstance` checks. */
  readonly [marker]: true = true;
  override readonly name: string = "JuneError";

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
  }

  /**
   * True when `error` is an error of this class, safe across bundles: `JuneError.isInstance(e)` matches every
   * June error; `SessionBusyError.isInstance(e)` matches by the subclass's stable `name`.
   */
  static isInstance<T extends JuneError>(this: abstract new (...args: any[]) => T, error: unknown): error is T {
    if (typeof error !== "object" || error === null || (error as Record<symbol, unknown>)[marker] !== true) return false;
    return (this as unknown) === JuneError || error instanceof this || (error as Error).name === this.name;
  }

  /** Matches a subclass by its stable `name`, safe across bundles. */
  static hasName<T extends JuneError>(error: unknown, name: string): error is T {
    return JuneError.isInstance(error) && error.name === name;
  }
}
