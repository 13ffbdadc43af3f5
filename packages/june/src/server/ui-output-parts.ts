import type { UIMessageChunk } from "ai";
import type { ChatTraceRow } from "../chat/trace/project-chat-trace.js";

/** The `type` of the data part `/ui-chat` sends for a streamed step's `output`: `data-june-output`. */
export const OUTPUT_PART = "data-june-output";

/**
 * The data of a `data-june-output` part: a streamed step's structured output (`<Step stream output={…}>`), its
 * value so far while it streams (`done: false`, the AI SDK's partial output), then its parsed result (`done:
 * true`). Its updates share one part id (`output-<stepId>`), so `useChat` shows the latest. Give the AI SDK's
 * `dataPartSchemas` the key `"june-output"`; `O` is the step's `Output` (or schema), for a typed `output`.
 *
 * @example
 * type Message = UIMessage<unknown, { "june-output": JuneOutputData<typeof card> }>;
 */
export interface JuneOutputData<O = unknown> {
  /** The step's `id` in the workflow. */
  stepId: string;
  /** The value parsed so far; the step's result once `done`. */
  output: O extends { parsePartialOutput(options: { text: string }): Promise<{ partial: infer P } | undefined> } ? P : unknown;
  /** True once the step is done and `output` is its checked result. */
  done: boolean;
}

/**
 * The `data-june-output` parts of a turn's run-updates: for each streamed step row with an `output`, a part each
 * time its value changes (one id per step, so the client replaces it). It only encodes: the rows are projected
 * and redacted by `turnStream`.
 */
export class UiOutputParts {
  readonly #sent = new Map<string, string>();
  readonly #write: (chunk: UIMessageChunk) => void;

  constructor(write: (chunk: UIMessageChunk) => void) {
    this.#write = write;
  }

  /** Writes a part for each step row whose `output` changed since the last run-update. */
  update(rows: readonly ChatTraceRow[]): void {
    for (const row of rows) {
      if (row.kind !== "step" || row.output === undefined) continue;
      const done = row.status === "done";
      const key = JSON.stringify([row.output, done]);
      if (this.#sent.get(row.stepId) === key) continue;
      this.#sent.set(row.stepId, key);
      const data: JuneOutputData = { stepId: row.stepId, output: row.output, done };
      this.#write({ type: OUTPUT_PART, id: `output-${row.stepId}`, data });
    }
  }
}
