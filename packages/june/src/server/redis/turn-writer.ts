import type { ServedTurn } from "../turn-event-bus.js";
import { entryFields, entryId, type RedisNames } from "./redis-keys.js";

/** Deletes the session's running-turn key only while it still names this turn. */
const DELETE_IF_SAME = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0";

/** What a `TurnWriter` needs from the bus. */
export interface TurnWriterHost {
  readonly names: RedisNames;
  readonly processId: string;
  readonly ttlSeconds: number;
  readonly maxEvents: number;
  /** Sends a command on the shared connection (commands sent one after the other go out in order). */
  command(args: string[]): Promise<unknown>;
  now(): number;
}

/**
 * Copies the `turnStream` events of a turn this process runs into its Redis stream (already projected and
 * redacted, exactly as SSE sends them): one `XADD` per event with the SSE event id as the entry id (`0-<index + 1>`) and
 * an `id` field, the stream capped at `maxEvents` (`MAXLEN ~`), and every key of the turn expiring
 * `ttlSeconds` after it was last renewed (renewed while the turn runs, set once more at its end).
 */
export class TurnWriter {
  readonly turn: ServedTurn;
  /** Resolves once the turn is indexed (see `index()`); set by the bus. */
  indexed: Promise<void> = Promise.resolve();
  /** True once the `turn-end` event is written. */
  done = false;
  /** When the turn ended (epoch ms). */
  endedAt: number | undefined;
  readonly #host: TurnWriterHost;
  #renewedAt = Number.NEGATIVE_INFINITY;
  #firstError: unknown;
  readonly #inFlight = new Set<Promise<unknown>>();

  constructor(host: TurnWriterHost, turn: ServedTurn) {
    this.#host = host;
    this.turn = turn;
  }

  /**
   * Writes the turn's index (session, owner) and its session's running-turn key: then other processes can
   * find it. A resumed durable turn keeps its id and starts its events again from the first: what a process
   * wrote for it before (its events through a `suspended` end, `ended`) is deleted first.
   */
  async index(): Promise<void> {
    const { names, processId, ttlSeconds } = this.#host;
    const { id, sessionId } = this.turn;
    const ttl = String(ttlSeconds);
    await Promise.all([
      this.#host.command(["DEL", names.turn(id), names.events(id)]),
      this.#host.command(["HSET", names.turn(id), "sessionId", sessionId, "owner", processId, "startedAt", new Date(this.#host.now()).toISOString()]),
      this.#host.command(["EXPIRE", names.turn(id), ttl]),
      this.#host.command(["SET", names.running(sessionId), id, "EX", ttl]),
    ]);
  }

  /** Writes the turn's events through its `turn-end` event. Rejects with the first failed write. */
  async pump(): Promise<void> {
    const { names, ttlSeconds, maxEvents } = this.#host;
    const { id, sessionId } = this.turn;
    const ttl = String(ttlSeconds);
    const turnKey = names.turn(id);
    const eventsKey = names.events(id);
    for await (const { index, event } of this.turn.read(0)) {
      this.#send(["XADD", eventsKey, "MAXLEN", "~", String(maxEvents), entryId(index), ...entryFields(index, event)]);
      if (event.type === "turn-end") {
        this.#send(["HSET", turnKey, "ended", event.status]);
        this.#send(["EXPIRE", turnKey, ttl]);
        this.#send(["EXPIRE", eventsKey, ttl]);
        this.#send(["EVAL", DELETE_IF_SAME, "1", names.running(sessionId), id]);
        this.endedAt = this.#host.now();
        break;
      }
      // The stream exists once its first entry is in: its expiry is set right after.
      if (index === 0) this.renew();
      else this.renewIfDue();
    }
    await Promise.all([...this.#inFlight]);
    this.done = true;
    if (this.#firstError !== undefined) throw this.#firstError;
  }

  /** Renews the expiry of the turn's keys when a quarter of it has passed (the bus calls it while the turn waits). */
  renewIfDue(): void {
    if (this.done || this.endedAt !== undefined) return;
    if (this.#host.now() - this.#renewedAt >= (this.#host.ttlSeconds * 1000) / 4) this.renew();
  }

  renew(): void {
    const { names, ttlSeconds } = this.#host;
    const ttl = String(ttlSeconds);
    this.#renewedAt = this.#host.now();
    this.#send(["EXPIRE", names.turn(this.turn.id), ttl]);
    this.#send(["EXPIRE", names.events(this.turn.id), ttl]);
    this.#send(["EXPIRE", names.running(this.turn.sessionId), ttl]);
  }

  /** Sends without waiting: node-redis pipelines commands on one connection and keeps their order. */
  #send(args: string[]): void {
    const sent = this.#host.command(args).catch((error: unknown) => {
      this.#firstError ??= error;
    });
    this.#inFlight.add(sent);
    void sent.finally(() => this.#inFlight.delete(sent));
  }
}
