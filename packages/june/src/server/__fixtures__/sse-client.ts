import { EventSourceParserStream } from "eventsource-parser/stream";

/** One parsed Server-Sent Event, its data decoded as JSON. */
export interface SseEvent {
  id: string | undefined;
  event: string | undefined;
  data: any;
}

/** The response body's Server-Sent Events, as they arrive. */
export async function* sseEvents(response: Response): AsyncGenerator<SseEvent> {
  if (!response.body) throw new Error("response has no body");
  const stream = response.body.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream());
  const reader = stream.getReader();
  try {
    for (;;) {
      const next = await reader.read();
      if (next.done) return;
      yield { id: next.value.id, event: next.value.event, data: JSON.parse(next.value.data) };
    }
  } finally {
    reader.releaseLock();
  }
}

/** Every event of a response, once it ends. */
export async function readSse(response: Response): Promise<SseEvent[]> {
  const events: SseEvent[] = [];
  for await (const event of sseEvents(response)) events.push(event);
  return events;
}
