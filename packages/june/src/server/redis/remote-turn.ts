import type { TurnCommand } from "../../chat/types.js";
import type { ServedTurn } from "../turn-event-bus.js";
import type { IndexedTurnStreamEvent } from "../../chat/stream/turn-stream-event.js";
import { asStreamEntries, type RedisClientLike, type StreamEntry, xreadEntries } from "./redis-client.js";
import { entryId, eventOf, type RedisNames } from "./redis-keys.js";

/** Entries read per `XRANGE`/`XREAD` call. */
const BATCH = 256;

/** What a `RemoteTurn` needs from the bus that found it. */
export interface RemoteTurnHost {
  readonly names: RedisNames;
  /** Runs one command on the shared connection. */
  command(args: string[]): Promise<unknown>;
  /** A connection of its own for blocking reads; `release` it when done (it is closed). */
  openBlocking(): Promise<RedisClientLike>;
  release(connection: RedisClientLike): void;
  /** Milliseconds an `XREAD` blocks before the reader checks that the turn's owner is alive. */
  readonly blockMs: number;
  /** Whether the process is alive (its presence key is there). */
  isAlive(processId: string): Promise<boolean>;
  /** Sends a command to the turn's owner and waits for its answer: rejects with the error the turn threw there. */
  request(owner: string, turnId: string, command: TurnCommand): Promise<void>;
  /** A request's Redis work, bounded in time: past the bus's `commandTimeoutMs` it rejects. */
  timed<T>(work: () => Promise<T>): Promise<T>;
}

/**
 * A turn another process runs, read from its Redis stream: `XRANGE` from the event after `Last-Event-ID`,
 * then `XREAD BLOCK` for live events until the `turn-end` event. The reading stops early, without a
 * `turn-end`, when the owner is gone (its presence key expired) before the turn ended, or the stream expired.
 */
export class RemoteTurn implements ServedTurn {
  readonly id: string;
  readonly sessionId: string;
  /** The process that runs the turn. */
  readonly owner: string;
  readonly #host: RemoteTurnHost;

  constructor(host: RemoteTurnHost, fields: { id: string; sessionId: string; owner: string }) {
    this.#host = host;
    this.id = fields.id;
    this.sessionId = fields.sessionId;
    this.owner = fields.owner;
  }

  control(command: TurnCommand): Promise<void> {
    return this.#host.request(this.owner, this.id, command);
  }

  async *read(from: number, signal?: AbortSignal): AsyncGenerator<IndexedTurnStreamEvent, void, undefined> {
    const host = this.#host;
    const key = host.names.events(this.id);
    let next = Math.max(0, from);
    // The backlog: everything written so far, without holding a connection.
    for (;;) {
      if (signal?.aborted) return;
      let ended: boolean;
      let entries: StreamEntry[];
      try {
        ended = await this.#ended();
        entries = asStreamEntries(await host.command(["XRANGE", key, entryId(next), "+", "COUNT", String(BATCH)]));
      } catch {
        // Redis failed: the stream ends here; the client can reconnect with its Last-Event-ID.
        return;
      }
      for (const entry of entries) {
        const item = eventOf(entry);
        if (!item || item.index < next) continue;
        yield item;
        next = item.index + 1;
        if (item.event.type === "turn-end") return;
      }
      if (entries.length === BATCH) continue;
      // Ended before the range was read: every event is in, and read.
      if (ended) return;
      break;
    }
    // Live: block on a connection of this reader's own, which is closed when the client goes away.
    let connection: RedisClientLike;
    try {
      connection = await host.openBlocking();
    } catch {
      return;
    }
    const onAbort = () => host.release(connection);
    signal?.addEventListener("abort", onAbort, { once: true });
    try {
      for (;;) {
        if (signal?.aborted) return;
        // Entries after `0-<next>` (the event at next - 1): the event at `next` on.
        const reply = await connection.sendCommand(["XREAD", "COUNT", String(BATCH), "BLOCK", String(host.blockMs), "STREAMS", key, `0-${next}`]);
        const entries = xreadEntries(reply, key);
        for (const entry of entries) {
          const item = eventOf(entry);
          if (!item || item.index < next) continue;
          yield item;
          next = item.index + 1;
          if (item.event.type === "turn-end") return;
        }
        if (entries.length > 0) continue;
        if (await this.#ended()) {
          // Ended between two reads: take what is left.
          const rest = asStreamEntries(await host.command(["XRANGE", key, entryId(next), "+"]));
          for (const entry of rest) {
            const item = eventOf(entry);
            if (item && item.index >= next) yield item;
          }
          return;
        }
        if (!(await host.isAlive(this.owner))) return;
        if (Number(await host.command(["EXISTS", key])) === 0 && Number(await host.command(["EXISTS", host.names.turn(this.id)])) === 0) return;
      }
    } catch {
      // The connection was closed (the client went away) or Redis failed: the stream ends here.
      return;
    } finally {
      signal?.removeEventListener("abort", onAbort);
      host.release(connection);
    }
  }

  /**
   * The events written so far, from index `from` on: the stream read up to its last entry at the time of the
   * call (`XREVRANGE ... COUNT 1`, then `XRANGE` to it), so a turn that writes on while it is read does not
   * keep the reader going. Bounded by the bus's `commandTimeoutMs`; a Redis failure rejects.
   */
  readSoFar(from = 0): Promise<IndexedTurnStreamEvent[]> {
    const host = this.#host;
    const key = host.names.events(this.id);
    return host.timed(async () => {
      const [last] = asStreamEntries(await host.command(["XREVRANGE", key, "+", "-", "COUNT", "1"]));
      const events: IndexedTurnStreamEvent[] = [];
      if (!last) return events;
      let next = Math.max(0, from);
      for (;;) {
        const entries = asStreamEntries(await host.command(["XRANGE", key, entryId(next), last.id, "COUNT", String(BATCH)]));
        for (const entry of entries) {
          const item = eventOf(entry);
          if (item && item.index >= next) events.push(item);
        }
        const end = entries.at(-1);
        if (entries.length < BATCH || !end || end.id === last.id) return events;
        // Past the batch's last entry (`0-<index + 1>`), whether or not it held an event.
        next = Math.max(next + 1, Number(end.id.split("-")[1]));
      }
    });
  }

  async #ended(): Promise<boolean> {
    const ended = await this.#host.command(["HGET", this.#host.names.turn(this.id), "ended"]);
    return ended !== null && ended !== undefined;
  }
}
