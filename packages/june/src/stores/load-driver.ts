import { createRequire } from "node:module";
import { StoreDriverMissingError } from "./errors.js";

const requireFromHere = createRequire(import.meta.url);

/**
 * Loads an optional peer dependency (a database driver) when a store is made, not when its module is
 * imported: importing `june/chat` works without `better-sqlite3` or `pg`, calling `sqliteStore` then names
 * the package to install. Both drivers are CommonJS, so a synchronous `require` keeps the store factories
 * synchronous.
 *
 * @param packageName The driver's npm name, e.g. `pg`.
 * @param store The factory that needs it, for the message, e.g. `postgresStore`.
 * @param range The versions to install, for the message, e.g. `12`.
 */
export function loadDriver<T>(packageName: string, store: string, range: string): T {
  try {
    return requireFromHere(packageName) as T;
  } catch (error) {
    if (isMissing(error, packageName)) {
      throw new StoreDriverMissingError(
        packageName,
        `${store} needs the "${packageName}" package, which is not installed: run \`npm install ${packageName}@${range}\``,
        { cause: error },
      );
    }
    throw error;
  }
}

function isMissing(error: unknown, packageName: string): boolean {
  if (typeof error !== "object" || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  // Only the driver itself: a driver that fails to load one of its own dependencies is another problem.
  return code === "MODULE_NOT_FOUND" && typeof message === "string" && message.includes(`'${packageName}'`);
}
