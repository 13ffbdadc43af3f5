import { colorEnabled, type CliIO } from "./io.js";
import { createColors, type Colors } from "./colors.js";

const CLEAR_LINE = "\r\u001B[2K";

export interface ScreenOptions {
  /** Show the live progress line (on a terminal stderr only). */
  progress?: boolean;
}

/**
 * Prints what the renderers made: the reply on stdout, everything else on stderr. It keeps the two from
 * garbling each other on one terminal: the live progress line is cleared before anything else is
 * printed, hidden while a reply streams to the same terminal, and a note never starts mid-reply.
 */
export class Screen {
  readonly err: Colors;
  readonly out: Colors;
  private readonly io: CliIO;
  private readonly progress: boolean;
  private statusText = "";
  private statusShown = false;
  /** The reply's last character was not a newline. */
  private replyMidLine = false;
  /** A reply is streaming to the terminal that also shows stderr. */
  private replyStreaming = false;
  /** A question waits for an answer on the terminal: the progress line must not draw over it. */
  private prompting = false;

  constructor(io: CliIO, options: ScreenOptions = {}) {
    this.io = io;
    this.err = createColors(colorEnabled(io.env, io.stderr));
    this.out = createColors(colorEnabled(io.env, io.stdout));
    this.progress = (options.progress ?? true) && io.stderr.isTTY;
  }

  /** stdout and stderr go to the same place: one terminal, or one pipe or file (`2>&1`). */
  private get shared(): boolean {
    return this.io.outputsShared ?? (this.io.stdout.isTTY && this.io.stderr.isTTY);
  }

  /** Writes a piece of the reply to stdout: text the turn stream (or `io.redact`) redacted already. */
  reply(text: string): void {
    if (text.length === 0) return;
    if (this.shared) {
      this.clearStatus();
      this.replyStreaming = true;
    }
    this.io.stdout.writeRedacted(text);
    this.replyMidLine = !text.endsWith("\n");
  }

  /**
   * Ends a reply. On a terminal, when stderr goes to the same place (`2>&1`), or when `always`, a reply that
   * did not end in a newline gets one, so what follows starts on its own line; piped output is otherwise
   * left exactly as the reply was (`june ask … > out.md`).
   */
  endReply(options: { always?: boolean } = {}): void {
    if (this.replyMidLine && (options.always || this.io.stdout.isTTY || this.shared)) this.io.stdout.write("\n");
    this.replyMidLine = false;
    this.replyStreaming = false;
  }

  /** Writes JSON lines to stdout, of values redacted already (the turn stream's events, `io.redact`'s). */
  data(text: string): void {
    this.io.stdout.writeRedacted(text);
  }

  /** Sets the live progress line (stderr, on a terminal only); `""` clears it. */
  status(line: string): void {
    this.statusText = line;
    if (!this.progress) return;
    if (this.replyStreaming || this.prompting) return;
    if (line === "") return this.clearStatus();
    this.io.stderr.write(CLEAR_LINE + line);
    this.statusShown = true;
  }

  /** Removes the progress line from the terminal (it comes back with the next `status`). */
  clearStatus(): void {
    if (!this.statusShown) return;
    this.io.stderr.write(CLEAR_LINE);
    this.statusShown = false;
  }

  /** Makes room on stderr for a line or a prompt: no progress line, not in the middle of a reply. */
  private makeRoom(): void {
    this.clearStatus();
    if (this.shared && this.replyMidLine) {
      this.io.stdout.write("\n");
      this.replyMidLine = false;
    }
  }

  /** Writes one line to stderr, then puts the progress line back. */
  note(line: string): void {
    this.makeRoom();
    this.io.stderr.write(`${line}\n`);
    if (this.statusText && !this.replyStreaming) this.status(this.statusText);
  }

  /** Prepares stderr for a question read from the terminal; the progress line waits until `afterPrompt`. */
  beforePrompt(): void {
    this.makeRoom();
    this.prompting = true;
  }

  /** The question was answered (or withdrawn): the progress line may come back. */
  afterPrompt(): void {
    this.prompting = false;
  }

  /** Forgets the progress line (a turn ended). */
  resetStatus(): void {
    this.clearStatus();
    this.statusText = "";
  }
}
