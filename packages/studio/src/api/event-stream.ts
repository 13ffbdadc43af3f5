import { EventSourceParserStream } from "eventsource-parser/stream";
import { isTurnStreamEventType, parseTurnStreamEvent, TurnStreamEventError } from "june/stream";
import type { StreamEvent } from "./types";

/** An event the server sent that is not what `june/stream`'s schema says (a server of another version, or a bug). */
export class StreamEventError extends Error {
  override readonly name = "StreamEventError";
}

/**
 * Reads a Server-Sent Events body (over `fetch`, so requests can carry Studio's token header) into
 * turn events, each checked with the stream's own schema (`parseTurnStreamEvent` from `june/stream`). The
 * SSE `event` name wins over a `type` in the data; events of names the stream does not have (a newer
 * server's) are skipped; an event of a known name that does not match the schema throws `StreamEventError`
 * naming the field, rather than reaching the page half-formed.
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
      let data: Record<string, unknown>;
      try {
        data = JSON.parse(value.data) as Record<string, unknown>;
      } catch {
        continue;
      }
      const type = isTurnStreamEventType(value.event) ? value.event : data?.type;
      if (!isTurnStreamEventType(type)) continue;
      yield { id: value.id, event: checked({ ...data, type }) };
    }
  } finally {
    // A reader that stops early (a session switch) lets go of the request; the turn runs on server-side.
    await reader.cancel().catch(() => undefined);
  }
}

function checked(value: unknown): StreamEvent {
  try {
    return parseTurnStreamEvent(value);
  } catch (error) {
    if (TurnStreamEventError.isInstance(error)) throw new StreamEventError(`The server sent an event Studio cannot read: ${error.message}`);
    throw error;
  }
}
