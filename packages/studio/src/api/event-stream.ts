import { EventSourceParserStream } from "eventsource-parser/stream";
import type { StreamEvent } from "./types";

const KNOWN = new Set<StreamEvent["type"]>(["turn-start", "text-delta", "run-update", "approval-request", "turn-end"]);

/**
 * Reads a Server-Sent Events body (over `fetch`, so requests can carry Studio's token header) into
 * turn events. The SSE `event` name wins over a `type` in the data; events of other names are skipped.
 */
export async function* readEventStream(
  body: ReadableStream<Uint8Array<ArrayBuffer>>,
): AsyncGenerator<{ id?: string; event: StreamEvent }> {
  const reader = body
    .pipeThrough(new TextDecoderStream())
    .pipeThrough(new EventSourceParserStream())
    .getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      const type = (value.event ?? "message") as StreamEvent["type"];
      let data: Record<string, unknown>;
      try {
        data = JSON.parse(value.data) as Record<string, unknown>;
      } catch {
        continue;
      }
      const name = KNOWN.has(type) ? type : (data.type as StreamEvent["type"]);
      if (!KNOWN.has(name)) continue;
      yield { id: value.id, event: { ...data, type: name } as StreamEvent };
    }
  } finally {
    // A reader that stops early (a session switch) lets go of the request; the turn runs on server-side.
    await reader.cancel().catch(() => undefined);
  }
}
