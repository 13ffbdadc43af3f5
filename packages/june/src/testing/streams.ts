import { EventSourceParserStream } from "eventsource-parser/stream";
import type { TraceNode } from "../runtime/types.js";
import type { ResponderTraceNode } from "../chat/trace/responder-trace.js";

/**
 * Every item of an async iterable (a turn, a responder's events) or a `ReadableStream`, once it ends.
 *
 * @example
 * const events = await collect(session.send("hi"));
 */
export async function collect<T>(source: AsyncIterable<T> | ReadableStream<T> | undefined): Promise<T[]> {
  const items: T[] = [];
  if (source === undefined) return items;
  if (source instanceof ReadableStream) {
    const reader = source.getReader();
    try {
      for (;;) {
        const next = await reader.read();
        if (next.done) return items;
        items.push(next.value);
      }
    } finally {
      reader.releaseLock();
    }
  }
  for await (const item of source) items.push(item);
  return items;
}

/** The text of each `text-delta` event, in order. */
export function textDeltas(events: Iterable<{ type: string; text?: string }>): string[] {
  const deltas: string[] = [];
  for (const event of events) if (event.type === "text-delta" && typeof event.text === "string") deltas.push(event.text);
  return deltas;
}

/** Every node of a trace tree (a run's `TraceNode`, or a turn's `ResponderTraceNode`) of the given kind, depth first in document order. */
export function findNodes<K extends TraceNode["kind"]>(tree: TraceNode, kind: K): Extract<TraceNode, { kind: K }>[];
export function findNodes<K extends ResponderTraceNode["kind"]>(tree: ResponderTraceNode, kind: K): Extract<ResponderTraceNode, { kind: K }>[];
export function findNodes(tree: ResponderTraceNode, kind: string): ResponderTraceNode[] {
  const found: ResponderTraceNode[] = [];
  const visit = (node: ResponderTraceNode): void => {
    if (node.kind === kind) found.push(node);
    for (const child of node.children) visit(child);
  };
  visit(tree);
  return found;
}

/** One parsed Server-Sent Event, its data decoded as JSON. */
export interface ServerSentEvent {
  id: string | undefined;
  event: string | undefined;
  data: any;
}

/**
 * A response body's Server-Sent Events as they arrive (a June handler's turn stream, say), parsed with
 * `eventsource-parser`, each `data` decoded as JSON.
 */
export async function* sseEvents(response: Response): AsyncGenerator<ServerSentEvent> {
  if (!response.body) throw new TypeError("sseEvents: the response has no body");
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

/** Every Server-Sent Event of a response, once it ends. */
export function readSse(response: Response): Promise<ServerSentEvent[]> {
  return collect(sseEvents(response));
}
