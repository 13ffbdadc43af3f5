/**
 * The base of every error June throws. `JuneError.isInstance(e)` works across bundles and copies of the
 * package, where `instanceof` may not, and under minifiers, which rename classes.
 *
 * Each subclass declares a marker of its own, `static override readonly marker = Symbol.for("june.<Name>")`
 * (the AI SDK's `AISDKError` subclasses are the model). Symbols made with `Symbol.for` are shared by every
 * copy of the package in a process, so `SubClass.isInstance(e)` recognizes an error thrown by another copy;
 * it never compares `name` strings. An instance carries the markers of its class and of every class above it,
 * so a parent's `isInstance` matches its subclasses.
 *
 * @example
 * try {
 *   await session.send("hi").result;
 * } catch (error) {
 *   if (SessionBusyError.isInstance(error)) console.log(`busy: ${error.sessionId}`);
 *   else throw error;
 * }
 */
export class JuneError extends Error {
  /** The registered symbol that marks instances of this class (every subclass declares its own). */
  static readonly marker: symbol = Symbol.for("june.error");
  override readonly name: string = "JuneError";

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    const marks = this as unknown as Record<symbol, true>;
    for (let c: Function | null = new.target; c !== null && c !== Error; c = Object.getPrototypeOf(c) as Function | null) {
      marks[(c as unknown as { marker: symbol }).marker] = true;
    }
  }

  /**
   * True when `error` is an error of this class or a subclass, from this copy of June or any other:
   * `JuneError.isInstance(e)` matches every June error, `SessionBusyError.isInstance(e)` only that kind.
   * Call it on the class (`SessionBusyError.isInstance`), not detached from it.
   */
  static isInstance<T extends JuneError>(
    this: (abstract new (...args: any[]) => T) & { readonly marker: symbol },
    error: unknown,
  ): error is T {
    if (this === undefined) throw new TypeError("isInstance must be called on an error class, as in SessionBusyError.isInstance(error)");
    return typeof error === "object" && error !== null && (error as Record<symbol, unknown>)[this.marker] === true;
  }
}
