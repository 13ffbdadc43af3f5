import type { TextRedactOptions } from "../redaction/redact.js";

/** A stream of the process the CLI writes to: stdout or stderr, as it is. */
export interface CliOutput {
  write(text: string): void;
  /** True when the stream is a terminal. */
  readonly isTTY: boolean;
  /** The terminal's width, when it is one. */
  readonly columns?: number;
  /** The underlying stream, for `node:readline`'s echo (stderr on a terminal). */
  readonly stream?: NodeJS.WritableStream;
}

/** Where the CLI reads from: stdin. */
export interface CliInput {
  readonly isTTY: boolean;
  /** The raw stream, read line by line with `node:readline`. */
  readonly stream: NodeJS.ReadableStream;
}

/**
 * Everything the CLI takes from its process, so commands never touch `process` and run in tests with fake
 * streams. `bin.ts` builds the real one (it is the only place that touches `process`) and gives it to `runCli`,
 * which puts it behind the output gate (`CliIO`) before any command sees it.
 */
export interface ProcessIO {
  readonly stdout: CliOutput;
  readonly stderr: CliOutput;
  readonly stdin: CliInput;
  readonly env: Readonly<Record<string, string | undefined>>;
  /**
   * stdout and stderr go to the same place (one terminal, or one pipe or file with `2>&1`), so a line on
   * stderr must not start in the middle of the reply. When unknown: true when both are terminals.
   */
  readonly outputsShared?: boolean;
  /** The working directory: relative paths (files, `--store`) resolve against it. */
  readonly cwd: string;
  /**
   * Listens for Ctrl-C (SIGINT). Listeners run newest first; the first that returns `true` handled it.
   * When none does, the process quits with 130. Returns a function that stops listening.
   */
  onInterrupt(listener: () => boolean): () => void;
  /** Raises an interrupt as if SIGINT arrived (readline traps Ctrl-C on a terminal and calls this). */
  interrupt(): void;
  /** Quits at once with `code` (a second Ctrl-C). */
  exit(code: number): never;
  /**
   * Opens `text` in `editor` (`$VISUAL` or `$EDITOR`) on the terminal and resolves to the text as saved, or
   * `undefined` when the editor failed (an approval's `e`).
   */
  editText?(text: string, editor: string): Promise<string | undefined>;
  /** Opens a URL in the user's browser, best effort (`june studio --open`). */
  openUrl?(url: string): void;
}

/** stdout or stderr behind the output gate (`output-gate.ts`). */
export interface GatedOutput extends CliOutput {
  /** Writes text the CLI composed (a note, an error line, a table): masked on its way out. */
  write(text: string): void;
  /**
   * Writes text made only of what was redacted with the gate's options already: the turn stream's reply and
   * events (`turnStream(turn, { redaction: io.redaction })`), or values `io.redact` returned, as JSON. It is
   * written as it is: masking a reply a write at a time would miss a key split across two writes (the stream
   * masked it whole), and masking JSON text could cut an escape.
   */
  writeRedacted(text: string): void;
}

/**
 * What every command gets: its process's io behind the output gate (`outputGate`), the one place the CLI
 * redacts. Its options (June's patterns, then `JUNE_REDACT`'s) were resolved once, by `runCli`.
 */
export interface CliIO extends ProcessIO {
  readonly stdout: GatedOutput;
  readonly stderr: GatedOutput;
  /** The gate's own patterns (`JUNE_REDACT`), for the projections that redact as they cut (`turnStream`, `streamTraceRows`, `approvalView`, `errorInfo`). */
  readonly redaction: TextRedactOptions;
  /** A copy of `value` redacted with the gate's options (`redact`), to render or write with `writeRedacted`. */
  redact<T>(value: T): T;
  /**
   * stderr as it is, past the gate: only for what the CLI prints because the user must see it whole, a
   * secret of their own (`june studio`'s URL and its token).
   */
  readonly stderrVerbatim: CliOutput;
}

/** Whether colors may be used on `output`: a terminal, `NO_COLOR` unset or empty, `TERM` not `dumb`. */
export function colorEnabled(env: ProcessIO["env"], output: CliOutput): boolean {
  if (!output.isTTY) return false;
  const noColor = env.NO_COLOR;
  if (noColor !== undefined && noColor !== "") return false;
  return env.TERM !== "dumb";
}
