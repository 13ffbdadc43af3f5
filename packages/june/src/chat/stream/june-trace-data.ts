import type { ChatTraceRow } from "../trace/project-chat-trace.js";
import { parseTurnStreamEvent } from "./turn-stream-schema.js";

/**
 * The data of `/ui-chat`'s `data-june-trace` part: a turn's trace as its latest `run-update` had it (the whole
 * snapshot's rows, projected and redacted as every surface has them). Each snapshot goes out as a chunk with the
 * same part id, so the assistant message holds one such part, replaced by each newer one.
 */
export interface JuneTraceData {
  rows: ChatTraceRow[];
}

/**
 * What `useChat`'s `dataPartSchemas` takes (the Standard Schema interface, `~standard`), written here so that
 * `june/stream` stays free of packages. Only what the AI SDK reads is declared: `validate`, and `types` for
 * inference.
 */
export interface JuneTraceDataSchema {
  readonly "~standard": {
    readonly version: 1;
    readonly vendor: "june";
    readonly validate: (value: unknown) => { readonly value: JuneTraceData; readonly issues?: undefined } | { readonly issues: readonly { readonly message: string; readonly path?: readonly PropertyKey[] }[] };
    readonly types?: { readonly input: JuneTraceData; readonly output: JuneTraceData };
  };
}

/**
 * Checks a `data-june-trace` part's data with the turn stream's own schema of trace rows. Pass it to `useChat`
 * so the message's part is typed and checked:
 *
 * @example
 * type JuneUIMessage = UIMessage<unknown, { "june-trace": JuneTraceData }>;
 * const { messages } = useChat<JuneUIMessage>({ transport, dataPartSchemas: { "june-trace": juneTraceDataSchema } });
 */
export const juneTraceDataSchema: JuneTraceDataSchema = Object.freeze({
  "~standard": Object.freeze({
    version: 1 as const,
    vendor: "june" as const,
    validate(value: unknown) {
      if (typeof value !== "object" || value === null || Array.isArray(value)) return { issues: [{ message: "must be an object with rows" }] };
      try {
        const event = parseTurnStreamEvent({ type: "run-update", rows: (value as { rows?: unknown }).rows });
        return { value: { rows: (event as { rows: ChatTraceRow[] }).rows } };
      } catch (error) {
        return { issues: [{ message: error instanceof Error ? error.message : String(error), path: ["rows"] }] };
      }
    },
  }),
});
