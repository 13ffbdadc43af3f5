import { JuneError } from "../errors/june-error.js";
import { ProviderNotInstalledError } from "../sdk/load-provider.js";

/** Bad command-line usage: an unknown flag, a missing argument, flags that exclude each other. Exit code 2. */
export class CliUsageError extends JuneError {
  static override readonly marker: symbol = Symbol.for("june.CliUsageError");
  override readonly name = "CliUsageError";
  readonly exitCode = 2;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** A configuration the CLI cannot work with: an unknown provider, a missing API key. Exit code 2. */
export class CliConfigError extends JuneError {
  static override readonly marker: symbol = Symbol.for("june.CliConfigError");
  override readonly name = "CliConfigError";
  readonly exitCode = 2;
  /** The environment variable that is missing or wrong, when there is one. */
  readonly envVar?: string;
  constructor(message: string, options?: { envVar?: string; cause?: unknown }) {
    super(message, options);
    this.envVar = options?.envVar;
  }
}

/** A module that is missing, fails to load, or exports the wrong thing. Exit code 2. */
export class ModuleLoadError extends JuneError {
  static override readonly marker: symbol = Symbol.for("june.ModuleLoadError");
  override readonly name = "ModuleLoadError";
  readonly exitCode = 2;
  /** The file as given on the command line. */
  readonly file: string;
  constructor(message: string, options: { file: string; cause?: unknown }) {
    super(message, options);
    this.file = options.file;
  }
}

/** The errors that end the CLI with exit code 2 and one line on stderr. */
export type CliExitError = CliUsageError | CliConfigError | ModuleLoadError;

/** True for a `CliUsageError`, `CliConfigError` or `ModuleLoadError`, across copies of the package. */
export function isCliExitError(error: unknown): error is CliExitError {
  return (
    CliUsageError.isInstance(error) ||
    CliConfigError.isInstance(error) ||
    ModuleLoadError.isInstance(error) ||
    // A `june/sdk/*` provider package that is not installed: configuration, like an unknown provider.
    ProviderNotInstalledError.isInstance(error)
  );
}
