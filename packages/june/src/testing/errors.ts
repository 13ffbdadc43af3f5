import { JuneError } from "../errors/june-error.js";

/**
 * A mock model or fake provider asked for more than its script holds: the test made a call it did not
 * script. Names the mock and the call, so the test can add the entry (or see the extra call it did not expect).
 */
export class ScriptExhaustedError extends JuneError {
  static override readonly marker: symbol = Symbol.for("june.ScriptExhaustedError");
  override readonly name = "ScriptExhaustedError";
  /** The mock, e.g. `scriptedModel` or `fakeOpenAIServer`. */
  readonly source: string;
  /** The call (or request) that had no entry, from 1. */
  readonly call: number;
  /** How many entries the script has. */
  readonly entries: number;
  constructor(options: { source: string; call: number; entries: number; unit: "call" | "request" }) {
    super(`${options.source}: no script entry for ${options.unit} ${options.call} (the script has ${options.entries})`);
    this.source = options.source;
    this.call = options.call;
    this.entries = options.entries;
  }
}
