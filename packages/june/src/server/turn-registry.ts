import type { TextRedactOptions } from "../redaction/redact.js";
import { endedError } from "../chat/errors.js";
import type { Turn, TurnCommand } from "../chat/types.js";
import { ReplayBuffer } from "../chat/internal/replay-buffer.js";
import { turnStream } from "../chat/stream/turn-stream.js";
import type { IndexedTurnStreamEvent, TurnStreamEvent } from "../chat/stream/turn-stream-event.js";

/**
 * A turn this handler runs, served from here (`RemoteTurn` is one another process runs): it reads the
 * turn's `turnStream` once, as it comes, and keeps its events so any number of clients can read them from
 * any index, while the turn runs and after it ended. Reading never drives the turn: a client that goes away
 * leaves it running.
 *
 * It is the `ServedTurn` of a turn this process runs: `control` applies a command to the turn itself.
 *
 * Once the turn ended only what replay needs is kept (its id, session id and events): the `Turn` is let go,
 * and with it the session it ran in (its whole journal) and its raw events, so the ended turns a handler
 * keeps for replay hold a few kilobytes each however long their session is.
 */
export class LocalTurn {
  readonly id: string;
  readonly sessionId: string;
  /** The handler's own redaction patterns, for whatever else is made of this turn. */
  readonly redaction: TextRedactOptions;
  #turn: Turn | undefined;
  readonly #events = new ReplayBuffer<TurnStreamEvent>();
  #endedAt: number | undefined;
  #suspended = false;
  /** Resolves once the `turn-end` event is in (never rejects). */
  readonly done: Promise<void>;

  /** @param redaction Patterns of your own, masked after June's in every event (see `redactText`). */
  constructor(turn: Turn, now: () => number = Date.now, redaction: TextRedactOptions = {}) {
    this.redaction = redaction;
    this.id = turn.id;
    this.sessionId = turn.sessionId;
    this.#turn = turn;
    this.done = this.#pump(turn, now);
  }

  /** The turn while it runs (to approve, deny, cancel or steer it); `undefined` once its `turn-end` is in. */
  get turn(): Turn | undefined {
    return this.#turn;
  }

  /** True once the `turn-end` event is in. */
  get ended(): boolean {
    return this.#events.ended;
  }

  /** When the turn ended (epoch ms). */
  get endedAt(): number | undefined {
    return this.#endedAt;
  }

  /**
   * True once the turn ended `suspended`: this copy is then only what this process saw of a turn that may go
   * on elsewhere (a process that resumes it serves its events from the first, under the same id).
   */
  get suspended(): boolean {
    return this.#suspended;
  }

  /** How many events are in so far. */
  get length(): number {
    return this.#events.length;
  }

  /** The event at `index`, if it is in. */
  at(index: number): TurnStreamEvent | undefined {
    return this.#events.at(index);
  }

  /**
   * Applies a command to the turn (see `Turn.control`); once its `turn-end` is in the turn is no longer held,
   * so, as the turn itself would, it takes nothing: `TurnEndedError`.
   */
  control(command: TurnCommand): Promise<void> {
    const turn = this.#turn;
    if (!turn) return Promise.reject(endedError(this.id, command));
    return turn.control(command);
  }

  /** The events from index `from` on, waiting for new ones until the turn ends or `signal` aborts. */
  async *read(from = 0, signal?: AbortSignal): AsyncGenerator<IndexedTurnStreamEvent, void, undefined> {
    let index = Number.isInteger(from) && from > 0 ? from : 0;
    for await (const event of this.#events.read(index, signal)) yield { index: index++, event };
  }

  /** The events in so far, from index `from` on (see `ServedTurn.readSoFar`). */
  async readSoFar(from = 0): Promise<IndexedTurnStreamEvent[]> {
    const events: IndexedTurnStreamEvent[] = [];
    for (let index = Math.max(0, from); index < this.#events.length; index++) events.push({ index, event: this.#events.at(index)! });
    return events;
  }

  /** Resolves once there is an event at `index`, the turn ended, or `signal` aborted. */
  waitFor(index: number, signal?: AbortSignal): Promise<void> {
    return this.#events.waitFor(index, signal);
  }

  async #pump(turn: Turn, now: () => number): Promise<void> {
    for await (const { event } of turnStream(turn, { redaction: this.redaction })) {
      if (event.type !== "turn-end") {
        this.#events.push(event);
        continue;
      }
      this.#endedAt = now();
      this.#suspended = event.status === "suspended";
      this.#turn = undefined;
      this.#events.push(event);
      this.#events.end();
    }
  }
}

export interface TurnRegistryOptions {
  /** Most ended turns kept for replay (default 200); the oldest go first. */
  maxEndedTurns?: number;
  /** How long an ended turn stays available for replay, in ms (default 15 minutes). */
  endedTurnTtlMs?: number;
  now?: () => number;
  /** Patterns of your own, masked after June's in every event (see `redactText`). */
  redact?: TextRedactOptions;
}

/**
 * The live (and recently ended) turns one handler serves, by id. Running turns are never dropped; ended
 * ones are kept for `endedTurnTtlMs` or until more than `maxEndedTurns` ended after them.
 */
export class TurnRegistry {
  readonly #turns = new Map<string, LocalTurn>();
  /** The `LocalTurn` made for each `Turn` object (so tracking an ended turn again does not serve it twice). */
  readonly #served = new WeakMap<Turn, LocalTurn>();
  readonly #maxEnded: number;
  readonly #ttl: number;
  readonly #now: () => number;
  readonly #redact: TextRedactOptions;

  constructor(options: TurnRegistryOptions = {}) {
    this.#redact = options.redact ?? {};
    this.#maxEnded = options.maxEndedTurns ?? 200;
    this.#ttl = options.endedTurnTtlMs ?? 15 * 60_000;
    this.#now = options.now ?? Date.now;
  }

  /**
   * Starts serving a turn (or returns the one already served for it). A durable turn resumed under the id of
   * one served here until it suspended replaces it: its events start again from the first.
   */
  track(turn: Turn): LocalTurn {
    this.#prune();
    const existing = this.#turns.get(turn.id);
    if (existing && (!existing.ended || this.#served.get(turn) === existing)) return existing;
    const live = new LocalTurn(turn, this.#now, this.#redact);
    this.#turns.delete(turn.id);
    this.#turns.set(turn.id, live);
    this.#served.set(turn, live);
    return live;
  }

  get(turnId: string): LocalTurn | undefined {
    this.#prune();
    return this.#turns.get(turnId);
  }

  /** The session's most recently tracked turn, running or recently ended. */
  latestForSession(sessionId: string): LocalTurn | undefined {
    this.#prune();
    let latest: LocalTurn | undefined;
    for (const live of this.#turns.values()) if (live.sessionId === sessionId) latest = live;
    return latest;
  }

  /** Stops serving `live` (a suspended copy another process took over), unless a newer copy replaced it already. */
  forget(live: LocalTurn): void {
    if (this.#turns.get(live.id) === live) this.#turns.delete(live.id);
  }

  /** Forgets every turn of a session (after it was deleted). */
  forgetSession(sessionId: string): void {
    for (const [id, live] of this.#turns) if (live.sessionId === sessionId && live.ended) this.#turns.delete(id);
  }

  #prune(): void {
    const now = this.#now();
    const ended: [string, LocalTurn][] = [];
    for (const entry of this.#turns) {
      const live = entry[1];
      if (!live.ended) continue;
      if (now - (live.endedAt ?? now) > this.#ttl) this.#turns.delete(entry[0]);
      else ended.push(entry);
    }
    if (ended.length <= this.#maxEnded) return;
    ended.sort((a, b) => (a[1].endedAt ?? 0) - (b[1].endedAt ?? 0));
    for (const [id] of ended.slice(0, ended.length - this.#maxEnded)) this.#turns.delete(id);
  }
}
