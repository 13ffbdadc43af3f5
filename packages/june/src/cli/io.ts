/** A stream the CLI writes to: stdout or stderr. */
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
 * Everything the CLI takes from its process, passed down to every command, so commands never touch
 * `process` and run in tests with fake streams. `bin.ts` builds the real one; it is the only place that
 * touches `process`.
 */
export interface CliIO {
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
  /**
   * stderr as it is, past the redaction every other write goes through (`redactedIO`): only for what the CLI
   * prints because the user must see it whole, a secret of their own (`june studio`'s URL and its token).
   * Absent on an io that masks nothing: use `stderr` then.
   */
  readonly stderrVerbatim?: CliOutput;
}

/** Whether colors may be used on `output`: a terminal, `NO_COLOR` unset or empty, `TERM` not `dumb`. */
export function colorEnabled(env: CliIO["env"], output: CliOutput): boolean {
  if (!output.isTTY) return false;
  const noColor = env.NO_COLOR;
  if (noColor !== undefined && noColor !== "") return false;
  return env.TERM !== "dumb";
}
