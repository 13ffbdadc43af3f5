import type { IndexedTurnStreamEvent } from "../../chat/stream/turn-stream-event.js";
import type { TurnStreamEvent } from "../../chat/stream/turn-stream-event.js";
import { parseTurnStreamEvent } from "../../chat/stream/turn-stream-schema.js";
import type { StreamEntry } from "./redis-client.js";

/**
 * The Redis names `redisTurnEvents` uses, under its prefix (default `june:`):
 *
 * | name | kind | holds |
 * | --- | --- | --- |
 * | `turn:<turnId>` | hash | the turn index: `sessionId`, `owner` (the process running it), `ended` once it ended |
 * | `turn:<turnId>:events` | stream | the turn's events as the handler sends them (`id`, `type`, `data`) |
 * | `session:<sessionId>:running` | string | the id of the session's running turn |
 * | `process:<processId>` | string | present while the process is alive (a short expiry, renewed) |
 * | `control:<processId>` | channel | approve, deny, cancel and steer requests for the process's turns |
 * | `reply:<processId>` | channel | the answers to the process's requests |
 */
export class RedisNames {
  constructor(readonly prefix: string) {}

  turn(turnId: string): string {
    return `${this.prefix}turn:${turnId}`;
  }

  events(turnId: string): string {
    return `${this.prefix}turn:${turnId}:events`;
  }

  running(sessionId: string): string {
    return `${this.prefix}session:${sessionId}:running`;
  }

  process(processId: string): string {
    return `${this.prefix}process:${processId}`;
  }

  control(processId: string): string {
    return `${this.prefix}control:${processId}`;
  }

  reply(processId: string): string {
    return `${this.prefix}reply:${processId}`;
  }
}

/**
 * The stream entry id of the event at `index`: `0-<index + 1>`. Ids follow the SSE event ids, so a reader
 * resumes after `Last-Event-ID` n with `XRANGE key 0-<n + 2> +` or `XREAD ... 0-<n + 1>`.
 */
export function entryId(index: number): string {
  return `0-${index + 1}`;
}

/** The fields of the stream entry for an event: `id` (the SSE event id), `type` and `data` (the event as JSON). */
export function entryFields(index: number, event: TurnStreamEvent): string[] {
  return ["id", String(index), "type", event.type, "data", JSON.stringify(event)];
}

/**
 * The event a stream entry holds, checked with the stream's one schema (`parseTurnStreamEvent`), or
 * `undefined` for an entry that is not one (another writer's, or a newer one's event type).
 */
export function eventOf(entry: StreamEntry): IndexedTurnStreamEvent | undefined {
  const { id, data } = entry.fields;
  if (id === undefined || data === undefined || !/^\d{1,9}$/.test(id)) return undefined;
  try {
    return { index: Number(id), event: parseTurnStreamEvent(JSON.parse(data)) };
  } catch {
    return undefined;
  }
}
