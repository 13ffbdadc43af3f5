import type { TextRedactOptions } from "../redaction/redact.js";
import { CliUsageError } from "./errors.js";
import type { CliIO } from "./io.js";

/**
 * Your own redaction patterns for everything the CLI prints (`june ask`, `june chat`, `june run`, `june sessions`, `june dataset`, `june eval`):
 * `JUNE_REDACT`, one regular expression a line, written bare (`acme_[a-z0-9]{20}`) or as `/source/flags`.
 * Masked after June's own patterns, as `createChatHandler({ redact })` masks them over HTTP. A line that is
 * not a regular expression is a usage error (exit 2) naming it.
 */
export function redactOptionsOf(env: CliIO["env"]): TextRedactOptions {
  // Read once per environment: each command, and `june chat` on every turn, asks again.
  const raw = env.JUNE_REDACT;
  const known = parsed.get(env);
  if (known !== undefined && known.raw === raw) return known.options;
  const options = parseRedact(raw);
  parsed.set(env, { raw, options });
  return options;
}

const parsed = new WeakMap<CliIO["env"], { raw: string | undefined; options: TextRedactOptions }>();

function parseRedact(raw: string | undefined): TextRedactOptions {
  if (raw === undefined || raw.trim() === "") return {};
  const patterns = raw
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "")
    .map((line, i) => {
      const literal = /^\/(.+)\/([a-z]*)$/.exec(line);
      try {
        return literal ? new RegExp(literal[1]!, literal[2]) : new RegExp(line);
      } catch (error) {
        throw new CliUsageError(`JUNE_REDACT: line ${i + 1} is not a regular expression: ${(error as Error).message}`, { cause: error });
      }
    });
  return { patterns };
}
