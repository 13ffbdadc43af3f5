import type { ServedTurn } from "./turn-event-bus.js";

export interface TurnEventStreamOptions {
  /** The first event's index (0 replays from the start). */
  from: number;
  /** Stops the stream (not the turn) when the client goes away. */
  signal?: AbortSignal;
  /** Milliseconds between `: keep-alive` comments while waiting (0 turns them off). */
  keepAliveMs: number;
}

/** The headers of every Server-Sent Events response. */
export const SSE_HEADERS: Readonly<Record<string, string>> = {
  "content-type": "text/event-stream; charset=utf-8",
  "cache-control": "no-cache, no-transform",
  "x-accel-buffering": "no",
};

/** One SSE message: `id:` (when given), `event:`, then the data as one JSON line. */
export function formatSseEvent(fields: { id?: number | string; event?: string; data: unknown }): string {
  let out = "";
  if (fields.id !== undefined) out += `id: ${fields.id}\n`;
  if (fields.event !== undefined) out += `event: ${fields.event}\n`;
  // JSON.stringify escapes newlines, so the data is always a single `data:` line.
  out += `data: ${JSON.stringify(fields.data)}\n\n`;
  return out;
}

/** What `turnEventsResponse` reads: a turn here (`LocalTurn`) or one running in another process. */
export type TurnEventSource = Pick<ServedTurn, "id" | "sessionId" | "read">;

/**
 * A turn's events as a Server-Sent Events response, from index `from` through its `turn-end` event. Each
 * event goes out with `id:` its index, `event:` its type and `data:` the event as JSON. Canceling the
 * response (the client went away) stops reading; the turn runs on.
 */
export function turnEventsResponse(live: TurnEventSource, options: TurnEventStreamOptions): Response {
  const encoder = new TextEncoder();
  const stop = new AbortController();
  const onClientAbort = () => stop.abort();
  if (options.signal?.aborted) stop.abort();
  else options.signal?.addEventListener("abort", onClientAbort, { once: true });

  const events = live.read(options.from, stop.signal)[Symbol.asyncIterator]();
  let keepAlive: ReturnType<typeof setInterval> | undefined;
  let closed = false;
  const finish = () => {
    if (closed) return;
    closed = true;
    if (keepAlive !== undefined) clearInterval(keepAlive);
    options.signal?.removeEventListener("abort", onClientAbort);
    stop.abort();
  };

  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      if (options.keepAliveMs > 0) {
        keepAlive = setInterval(() => {
          if (closed) return;
          try {
            controller.enqueue(encoder.encode(": keep-alive\n\n"));
          } catch {
            finish();
          }
        }, options.keepAliveMs);
        keepAlive.unref?.();
      }
    },
    async pull(controller) {
      const next = await events.next();
      if (closed) return;
      if (next.done) {
        finish();
        try {
          controller.close();
        } catch {
          // Already canceled by the client.
        }
        return;
      }
      const { index, event } = next.value;
      controller.enqueue(encoder.encode(formatSseEvent({ id: index, event: event.type, data: event })));
    },
    cancel() {
      finish();
    },
  });

  return new Response(body, {
    status: 200,
    headers: { ...SSE_HEADERS, "x-june-turn-id": live.id, "x-june-session-id": live.sessionId },
  });
}
