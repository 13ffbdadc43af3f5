/**
 * What kind of value a caller passed, for error messages that name what was wrong: `"null"`, `"nothing"`
 * (undefined), `"an array"`, `"a promise"`, `"an object"`, `"a function"`, `"a string"`, `"a number"`, ...
 * Never the value itself, so a message built with it cannot carry a credential.
 */
export function valueKind(value: unknown): string {
  if (value === null) return "null";
  if (value === undefined) return "nothing";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object" && typeof (value as { then?: unknown }).then === "function") return "a promise";
  if (typeof value === "object") return "an object";
  return `a ${typeof value}`;
}
