/**
 * `june eval --scorer`: what it may name and how it is read, for the command's help (`eval.ts`) and its action
 * (`eval-action.ts`, which makes the scorers). Nothing here loads a scorer.
 */

/** The scorers `--scorer` may name. */
export const SCORER_HELP =
  "exactMatch (the default), includes, jsonMatch, includes:TEXT, regex:PATTERN, or a name from the module's `scorers` export";

/** Every `--scorer` value in the raw arguments (citty keeps only the last), split on commas. */
export function scorerSpecs(rawArgs: readonly string[]): string[] {
  const specs: string[] = [];
  for (let i = 0; i < rawArgs.length; i++) {
    const arg = rawArgs[i]!;
    if (arg === "--") break;
    let value: string | undefined;
    if (arg === "--scorer") value = rawArgs[++i];
    else if (arg.startsWith("--scorer=")) value = arg.slice("--scorer=".length);
    else continue;
    if (value === undefined) continue;
    // `regex:` patterns may hold commas: split only the rest.
    if (value.startsWith("regex:")) specs.push(value);
    else for (const part of value.split(",")) if (part.trim() !== "") specs.push(part.trim());
  }
  return [...new Set(specs)];
}
