import type { TextRedactOptions } from "../redaction/redact.js";
import { CliUsageError } from "./errors.js";
import type { ProcessIO } from "./io.js";

/**
 * Your own redaction patterns for everything the CLI prints (every command's output, through the output gate):
 * `JUNE_REDACT`, one regular expression a line, written bare (`acme_[a-z0-9]{20}`) or as `/source/flags`.
 * Masked after June's own patterns, as `createChatHandler({ redact })` masks them over HTTP. A line that is
 * not a regular expression is a usage error (exit 2) naming it. `runCli` reads it once, for its output gate.
 */
export function redactOptionsOf(env: ProcessIO["env"]): TextRedactOptions {
  const raw = env.JUNE_REDACT;
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
