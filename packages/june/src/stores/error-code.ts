/**
 * True when `error` carries this `code`: a Node system error's (`"ENOENT"`, `"EEXIST"`) or a PostgreSQL
 * error's SQLSTATE (`"23505"`). The one test of an error's code for the stores.
 */
export function hasCode(error: unknown, code: string): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === code;
}
