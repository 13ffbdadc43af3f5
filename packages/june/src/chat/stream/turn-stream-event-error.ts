import { JuneError } from "../../errors/june-error.js";

/**
 * A value read back as a turn-stream event (an SSE message, a Redis entry, a `--json` line) that is not one:
 * `path` says where (`request.toolCallId`, `rows[2].children[0].status`), the message what was expected.
 */
export class TurnStreamEventError extends JuneError {
  static override readonly marker: symbol = Symbol.for("june.TurnStreamEventError");
  override readonly name = "TurnStreamEventError";
  /** Where in the event the value was wrong (`""` for the event itself). */
  readonly path: string;
  constructor(path: string, detail: string) {
    super(`Not a turn-stream event: ${path === "" ? "" : `${path} `}${detail}`);
    this.path = path;
  }
}
