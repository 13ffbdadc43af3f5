import { redactText, type TextRedactOptions } from "../redaction/redact.js";
import type { CliIO, CliOutput } from "./io.js";
import { redactOptionsOf } from "./redact-patterns.js";

/**
 * The CLI's one way out: `io` whose stdout and stderr mask credentials in everything written (June's patterns,
 * then `JUNE_REDACT`'s), as the turn stream's redaction does. An error message that repeats a key (a provider's
 * 401, a server's echo) is masked here whatever built it. The reply comes through the stream's redactor a word
 * at a time, so no key is split across two writes; a JSON line is written from values `redact` walked already,
 * and is left as it is (masking its text could cut a JSON escape).
 */
export function redactedIO(io: CliIO): CliIO {
  let own: TextRedactOptions | undefined;
  const options = (): TextRedactOptions => {
    // A bad JUNE_REDACT is the command's usage error (exit 2); until then June's own patterns still apply.
    try {
      return (own ??= redactOptionsOf(io.env));
    } catch {
      return {};
    }
  };
  const output = (stream: CliOutput): CliOutput => ({
    write: (text) => stream.write(isJsonLine(text) ? text : redactText(text, options())),
    get isTTY() {
      return stream.isTTY;
    },
    get columns() {
      return stream.columns;
    },
    ...(stream.stream ? { stream: stream.stream } : {}),
  });
  // Everything else (stdin, env, onInterrupt, ...) is `io`'s own, getters and methods included.
  return Object.assign(Object.create(io) as CliIO, { stdout: output(io.stdout), stderr: output(io.stderr), stderrVerbatim: io.stderr });
}

function isJsonLine(text: string): boolean {
  return text.startsWith("{") && text.endsWith("}\n");
}
