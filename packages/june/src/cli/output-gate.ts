import { redact, redactText, type TextRedactOptions } from "../redaction/redact.js";
import type { CliIO, CliOutput, GatedOutput, ProcessIO } from "./io.js";

/** Where a gated io keeps the process io it stands in front of. */
const PROCESS_IO = Symbol("june.cli.processIO");

interface Gated {
  readonly [PROCESS_IO]: ProcessIO;
}

/** What `CliIO.redact` is: a copy of a value, redacted with the gate's options. */
export type Redact = <T>(value: T) => T;

/**
 * The CLI's one way out and its one redaction point: `io` behind a gate that masks credentials in what
 * leaves the process, June's patterns then `redaction`'s (`JUNE_REDACT`, resolved once by `runCli`), as the
 * turn stream and the HTTP routes mask them.
 *
 * - `write` masks the text the CLI composed: an error line that repeats a key (a provider's 401, a server's
 *   echo) is masked here whatever built it.
 * - `writeRedacted` writes what was redacted with these same options at its source, as it is: the turn
 *   stream's reply (masked whole, across deltas) and its events, and JSON of values `redact` returned.
 * - `redact` and `redaction` are these options, for what must be masked before it is cut or rendered: a
 *   value whose key names a credential, a tool's input bounded in an approval prompt, a session's title cut
 *   to its column, and the projections the turn stream makes (`turnStream`, `streamTraceRows`, `approvalView`,
 *   `errorInfo`). What they make as text still leaves through `write`; as JSON, through `writeRedacted`.
 * - `stderrVerbatim` is stderr past the gate, for a secret the user must see whole (`june studio`'s URL).
 *
 * Gates never stack: `io` already behind a gate (a test's fake) is gated anew from its process's own streams.
 */
export function outputGate(given: ProcessIO, redaction: TextRedactOptions): CliIO {
  const io = (given as Partial<Gated>)[PROCESS_IO] ?? given;
  const output = (stream: CliOutput): GatedOutput => ({
    write: (text) => stream.write(redactText(text, redaction)),
    writeRedacted: (text) => stream.write(text),
    get isTTY() {
      return stream.isTTY;
    },
    get columns() {
      return stream.columns;
    },
    ...(stream.stream ? { stream: stream.stream } : {}),
  });
  const gate: Pick<CliIO, "stdout" | "stderr" | "redaction" | "redact" | "stderrVerbatim"> & Gated = {
    [PROCESS_IO]: io,
    stdout: output(io.stdout),
    stderr: output(io.stderr),
    redaction,
    redact: (value) => redact(value, redaction),
    stderrVerbatim: io.stderr,
  };
  // Everything else (stdin, env, onInterrupt, ...) is `io`'s own, getters and methods included.
  return Object.assign(Object.create(io) as CliIO, gate);
}
