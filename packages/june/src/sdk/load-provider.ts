import { JuneError } from "../errors/june-error.js";

/** A `june/sdk/*` entry point whose AI SDK provider package is not installed. */
export class ProviderNotInstalledError extends JuneError {
  static override readonly marker: symbol = Symbol.for("june.ProviderNotInstalledError");
  override readonly name = "ProviderNotInstalledError";
  /** The npm package to install, such as `"@ai-sdk/openai"`. */
  readonly packageName: string;

  constructor(entry: string, packageName: string, options: { cause?: unknown } = {}) {
    super(`${entry} needs the AI SDK provider package ${packageName}, which is not installed: npm install ${packageName}`, options);
    this.packageName = packageName;
  }
}

/**
 * Imports an optional provider package for a `june/sdk/*` entry point. The providers are optional peer
 * dependencies of `june`: installing `june` brings none of them, and importing an entry point whose
 * package is missing fails with a `ProviderNotInstalledError` that names the package to install.
 */
export async function loadProvider<T>(entry: string, packageName: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (isMissing(error, packageName)) throw new ProviderNotInstalledError(entry, packageName, { cause: error });
    throw error;
  }
}

function isMissing(error: unknown, packageName: string): boolean {
  if (typeof error !== "object" || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  const missing = code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND" || (typeof message === "string" && /Cannot find (module|package)/.test(message));
  return missing && typeof message === "string" && message.includes(packageName);
}
