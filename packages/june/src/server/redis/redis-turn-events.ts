import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { redactText } from "../../redaction/redact.js";
import { TimeoutError } from "../../runtime/errors.js";
import { StoreClosedError } from "../../stores/errors.js";
import { endedError } from "../../chat/errors.js";
import type { TurnCommand } from "../../chat/types.js";
import { HttpError } from "../http-error.js";
import type { ServedTurn, TurnEventBus } from "../turn-event-bus.js";
import { type ControlOutcome, controlErrorJson, controlErrorOf, parseControlRequest, parseControlResponse } from "./control-messages.js";
import { asRecord, asString, clientFor, ensureOpen, type RedisClientLike, type RedisConnection } from "./redis-client.js";
import { RedisNames } from "./redis-keys.js";
import { RemoteTurn, type RemoteTurnHost } from "./remote-turn.js";
import { TurnWriter, type TurnWriterHost } from "./turn-writer.js";

/** Options for `redisTurnEvents`. */
export interface RedisTurnEventsOptions {
  /** How long a turn's keys live after its last event (or last renewal while it runs), in seconds. Default 3600. */
  ttlSeconds?: number;
  /** Put before every key and channel name. Default `"june:"`. */
  prefix?: string;
  /** Most events kept per turn (`XADD MAXLEN ~`); the oldest go first. Default 10,000. */
  maxEvents?: number;
  /** How long an approve, deny, cancel or steer waits for the process running the turn, in ms (then 504). Default 10,000. */
  controlTimeoutMs?: number;
  /** How long a request waits for Redis before it answers 503, in ms. Default 5,000. */
  commandTimeoutMs?: number;
  /** This process's name on the bus. Default: host, pid and a random suffix. */
  processId?: string;
  /** How long one `XREAD` blocks before the reader checks the turn's owner is alive, in ms. Default 5,000. */
  blockMs?: number;
  /** How long a process counts as alive after its last heartbeat, in ms. Default 15,000. */
  presenceTtlMs?: number;
  /** Called with Redis failures that no request sees (writing a turn's events, answering a control). Default: a process warning. */
  onError?: (error: unknown) => void;
}

/** A `TurnEventBus` over Redis (see `redisTurnEvents`). */
export interface RedisTurnEvents extends TurnEventBus {
  /** This process's name on the bus: the `owner` of the turns it runs. */
  readonly processId: string;
  /** Connects and subscribes now (otherwise done on first use). */
  ready(): Promise<void>;
}

/** How long a turn that ended stays answerable by this process after its `turn-end` event is written. */
const ENDED_GRACE_MS = 60_000;

/**
 * Shares the turns of several `june/server` processes through Redis, so a client can rejoin a turn's events
 * and approve, deny, cancel or steer it through any process behind a load balancer. Pass it to
 * `createChatHandler(chat, { turnEvents })`, one per handler, with the sessions in a store the processes
 * share (`postgresStore`).
 *
 * - Each turn a process runs is copied into a Redis stream (`<prefix>turn:<id>:events`), one entry per
 *   event of the turn's one stream (`turnStream`: already projected and redacted, no raw tool input or
 *   credential), its entry id following the SSE event id, read back through the same schema
 *   (`parseTurnStreamEvent`); `<prefix>turn:<id>` indexes the turn (session,
 *   owner process). Both expire `ttlSeconds` after the turn's end.
 * - Another process serving `GET /turns/:id/events` reads that stream: `XRANGE` from `Last-Event-ID`, then
 *   `XREAD BLOCK` until the `turn-end` event.
 * - Approve, deny, cancel and steer for a turn owned elsewhere are published on the owner's channel; the
 *   owner applies them and answers. No answer within `controlTimeoutMs` (the owner is gone) is a 504.
 *
 * Needs the `redis` package (node-redis 6.x), an optional peer dependency: `npm install redis@6`.
 *
 * @param connection `{ url }` (a client made, and closed by `close()`, here) or `{ client }` (a node-redis
 *   client of yours: used, duplicated for subscriptions and blocking reads, never closed here).
 * @param options `ttlSeconds`, `prefix` and limits.
 * @example
 * import { createChatHandler, serve } from "june/server";
 * import { redisTurnEvents } from "june/server/redis";
 *
 * const handler = createChatHandler(chat, { turnEvents: redisTurnEvents({ url: process.env.REDIS_URL! }) });
 * await serve({ handler, port: 3000 });
 */
export function redisTurnEvents(connection: RedisConnection, options: RedisTurnEventsOptions = {}): RedisTurnEvents {
  return new RedisTurnEventBus(connection, options);
}

class RedisTurnEventBus implements RedisTurnEvents, TurnWriterHost, RemoteTurnHost {
  readonly processId: string;
  readonly names: RedisNames;
  readonly ttlSeconds: number;
  readonly maxEvents: number;
  readonly blockMs: number;
  readonly #client: RedisClientLike;
  readonly #owned: boolean;
  readonly #controlTimeoutMs: number;
  readonly #commandTimeoutMs: number;
  readonly #presenceTtlMs: number;
  readonly #onError: (error: unknown) => void;
  readonly #writers = new Map<string, TurnWriter>();
  readonly #pending = new Map<string, (outcome: ControlOutcome) => void>();
  readonly #blocking = new Set<RedisClientLike>();
  #subscriber: RedisClientLike | undefined;
  #ready: Promise<void> | undefined;
  #heartbeat: ReturnType<typeof setInterval> | undefined;
  #closed = false;

  constructor(connection: RedisConnection, options: RedisTurnEventsOptions) {
    this.ttlSeconds = wholeNumber(options.ttlSeconds, "ttlSeconds", 3600);
    this.maxEvents = wholeNumber(options.maxEvents, "maxEvents", 10_000);
    this.blockMs = wholeNumber(options.blockMs, "blockMs", 5_000);
    this.#controlTimeoutMs = wholeNumber(options.controlTimeoutMs, "controlTimeoutMs", 10_000);
    this.#commandTimeoutMs = wholeNumber(options.commandTimeoutMs, "commandTimeoutMs", 5_000);
    this.#presenceTtlMs = wholeNumber(options.presenceTtlMs, "presenceTtlMs", 15_000);
    const prefix = options.prefix ?? "june:";
    if (typeof prefix !== "string") throw new TypeError(`redisTurnEvents: prefix must be a string, got ${typeof prefix}`);
    this.names = new RedisNames(prefix);
    const processId = options.processId ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
    if (typeof processId !== "string" || processId === "") throw new TypeError("redisTurnEvents: processId must be a non-empty string");
    this.processId = processId;
    this.#onError = options.onError ?? warn;
    const { client, owned } = clientFor(connection);
    this.#client = client;
    this.#owned = owned;
    // Without a listener a connection error would end the process; a client of yours has your listeners.
    if (owned) client.on("error", this.#onError);
  }

  now(): number {
    return Date.now();
  }

  command(args: string[]): Promise<unknown> {
    return this.#client.sendCommand(args);
  }

  ready(): Promise<void> {
    if (this.#closed) return Promise.reject(new StoreClosedError("redisTurnEvents"));
    this.#ready ??= this.#connect().catch((error: unknown) => {
      this.#ready = undefined;
      throw error;
    });
    return this.#ready;
  }

  async #connect(): Promise<void> {
    await ensureOpen(this.#client);
    if (this.#closed) throw new StoreClosedError("redisTurnEvents");
    const subscriber = this.#client.duplicate();
    subscriber.on("error", this.#onError);
    this.#subscriber = subscriber;
    try {
      await subscriber.connect();
      await subscriber.subscribe(this.names.control(this.processId), (message) => void this.#onControl(message));
      await subscriber.subscribe(this.names.reply(this.processId), (message) => this.#onReply(message));
      if (this.#closed) throw new StoreClosedError("redisTurnEvents");
    } catch (error) {
      if (this.#subscriber === subscriber) this.#subscriber = undefined;
      subscriber.destroy();
      throw error;
    }
    await this.#beat();
    const every = Math.max(50, Math.min(this.#presenceTtlMs / 3, (this.ttlSeconds * 1000) / 4));
    this.#heartbeat = setInterval(() => void this.#beat().catch(this.#onError), every);
    this.#heartbeat.unref?.();
  }

  /** Marks this process alive and renews the keys of the turns it runs. */
  async #beat(): Promise<void> {
    for (const writer of this.#writers.values()) writer.renewIfDue();
    await this.command(["SET", this.names.process(this.processId), "1", "PX", String(this.#presenceTtlMs)]);
  }

  publish(turn: ServedTurn): Promise<void> {
    if (this.#closed) return Promise.resolve();
    this.#prune();
    const existing = this.#writers.get(turn.id);
    // A durable turn resumed here under its id is another turn to serve: its writer replaces the ended one.
    if (existing && (existing.turn === turn || !existing.done)) return existing.indexed;
    const writer = new TurnWriter(this, turn);
    this.#writers.set(turn.id, writer);
    // The turn is indexed only once this process listens for its controls.
    const indexed = this.ready().then(() => writer.index());
    void indexed
      .then(() => writer.pump())
      .catch((error: unknown) => {
        // After close() the writes fail by design: nothing to report.
        if (!this.#closed) this.#onError(error);
      });
    // The request that started the turn waits for this, but not for long: the turn runs on regardless.
    writer.indexed = this.#timed(() => indexed).catch(() => undefined);
    return writer.indexed;
  }

  async find(turnId: string, options: { running?: boolean } = {}): Promise<ServedTurn | undefined> {
    const index = asRecord(
      await this.#timed(async () => {
        await this.ready();
        return this.command(["HGETALL", this.names.turn(turnId)]);
      }),
    );
    if (!index.sessionId || !index.owner) return undefined;
    if (index.owner === this.processId) {
      // Ours: the turn itself while this process still serves it (see `TurnEventBus.find`).
      const writer = this.#writers.get(turnId);
      if (writer) return options.running && (index.ended !== undefined || writer.done) ? undefined : writer.turn;
    }
    if (options.running && (index.ended !== undefined || !(await this.#timed(() => this.isAlive(index.owner!))))) return undefined;
    return new RemoteTurn(this, { id: turnId, sessionId: index.sessionId, owner: index.owner });
  }

  async runningTurnId(sessionId: string): Promise<string | undefined> {
    return this.#timed(async () => {
      await this.ready();
      const turnId = asString(await this.command(["GET", this.names.running(sessionId)]));
      if (turnId === undefined) return undefined;
      const index = asRecord(await this.command(["HGETALL", this.names.turn(turnId)]));
      if (!index.owner || index.ended !== undefined) return undefined;
      if (index.owner === this.processId) {
        const writer = this.#writers.get(turnId);
        return writer && !writer.done ? turnId : undefined;
      }
      return (await this.isAlive(index.owner)) ? turnId : undefined;
    });
  }

  async isAlive(processId: string): Promise<boolean> {
    return Number(await this.command(["EXISTS", this.names.process(processId)])) > 0;
  }

  async openBlocking(): Promise<RedisClientLike> {
    await this.ready();
    const connection = this.#client.duplicate();
    connection.on("error", () => undefined);
    await connection.connect();
    if (this.#closed) {
      connection.destroy();
      throw new StoreClosedError("redisTurnEvents");
    }
    this.#blocking.add(connection);
    return connection;
  }

  release(connection: RedisClientLike): void {
    if (!this.#blocking.delete(connection)) return;
    // A blocked XREAD cannot be taken back: the connection goes with it.
    connection.destroy();
  }

  /**
   * Sends a command to the process running the turn and waits for its answer: the typed error the turn
   * threw there is thrown here; no answer is a 504, Redis out of reach a 503 (`HttpError`s).
   */
  async request(owner: string, turnId: string, command: TurnCommand): Promise<void> {
    const local = owner === this.processId ? this.#writers.get(turnId) : undefined;
    if (local) return local.turn.control(command);
    const outcome = await this.#ask(owner, turnId, command);
    if ("error" in outcome) throw controlErrorOf(outcome.error);
  }

  async #ask(owner: string, turnId: string, command: TurnCommand): Promise<ControlOutcome> {
    let receivers: number;
    const requestId = randomUUID();
    const answer = new Promise<ControlOutcome>((resolve) => {
      const timer = setTimeout(() => {
        this.#pending.delete(requestId);
        resolve(gatewayTimeout(`The process running turn "${turnId}" did not answer within ${this.#controlTimeoutMs} ms`));
      }, this.#controlTimeoutMs);
      this.#pending.set(requestId, (outcome) => {
        clearTimeout(timer);
        this.#pending.delete(requestId);
        resolve(outcome);
      });
    });
    try {
      await this.#timed(() => this.ready());
      const ended = await this.#timed(() => this.command(["HGET", this.names.turn(turnId), "ended"]));
      if (ended !== null && ended !== undefined) {
        this.#pending.get(requestId)?.({ error: controlErrorJson(endedError(turnId, command)) });
        return answer;
      }
      const message = JSON.stringify({ requestId, replyTo: this.processId, turnId, command });
      receivers = Number(await this.#timed(() => this.command(["PUBLISH", this.names.control(owner), message])));
    } catch {
      this.#pending.get(requestId)?.(failure(503, "The turns of other processes cannot be reached right now"));
      return answer;
    }
    if (receivers === 0) this.#pending.get(requestId)?.(gatewayTimeout(`The process running turn "${turnId}" is gone`));
    return answer;
  }

  /** A control request for one of this process's turns: apply it and answer on the requester's channel. */
  async #onControl(message: string): Promise<void> {
    const request = parseControlRequest(message);
    if (!request) return;
    const writer = this.#writers.get(request.turnId);
    let outcome: ControlOutcome;
    try {
      if (!writer) throw new HttpError(404, `No live or recent turn "${request.turnId}"`);
      await writer.turn.control(request.command);
      outcome = { ok: true };
    } catch (error) {
      outcome = { error: controlErrorJson(error) };
    }
    try {
      await this.command(["PUBLISH", this.names.reply(request.replyTo), JSON.stringify({ requestId: request.requestId, outcome })]);
    } catch (error) {
      this.#onError(error);
    }
  }

  #onReply(message: string): void {
    const response = parseControlResponse(message);
    if (response) this.#pending.get(response.requestId)?.(response.outcome);
  }

  /** Forgets turns that ended a while ago (their events stay in Redis until they expire). */
  #prune(): void {
    const now = this.now();
    for (const [id, writer] of this.#writers) {
      if (writer.done && writer.endedAt !== undefined && now - writer.endedAt > ENDED_GRACE_MS) this.#writers.delete(id);
    }
  }

  timed<T>(work: () => Promise<T>): Promise<T> {
    return this.#timed(work);
  }

  /** A request's Redis work, bounded: past `commandTimeoutMs` it fails (the route answers 503). */
  async #timed<T>(work: () => Promise<T>): Promise<T> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new TimeoutError(`Redis did not answer within ${this.#commandTimeoutMs} ms`, { timeout: this.#commandTimeoutMs })), this.#commandTimeoutMs);
    });
    try {
      return await Promise.race([work(), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#heartbeat !== undefined) clearInterval(this.#heartbeat);
    for (const connection of [...this.#blocking]) this.release(connection);
    for (const settle of [...this.#pending.values()]) settle(gatewayTimeout("The server is shutting down"));
    // A connection still being made (Redis unreachable) is dropped, not waited for.
    const subscriber = this.#subscriber;
    this.#subscriber = undefined;
    if (subscriber?.isReady) {
      await subscriber.close().catch(() => subscriber.destroy());
      if (this.#client.isReady) await this.command(["DEL", this.names.process(this.processId)]).catch(() => undefined);
    } else if (subscriber?.isOpen) {
      subscriber.destroy();
    }
    if (!this.#owned || !this.#client.isOpen) return;
    if (this.#client.isReady) await this.#client.close().catch(() => this.#client.destroy());
    else this.#client.destroy();
  }
}

function gatewayTimeout(message: string): ControlOutcome {
  return failure(504, message);
}

/** A failure of the bus itself (no process answered), as an `HttpError` on the requester's side. */
function failure(status: number, message: string): ControlOutcome {
  return { error: { name: "HttpError", message, status } };
}

function wholeNumber(value: number | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) throw new TypeError(`redisTurnEvents: ${name} must be a whole number, 1 or more, got ${String(value)}`);
  return value;
}

let lastWarning = 0;
/** The default `onError`: a process warning, at most one every 30 seconds, its message redacted. */
function warn(error: unknown): void {
  const now = Date.now();
  if (now - lastWarning < 30_000) return;
  lastWarning = now;
  const message = error instanceof Error ? error.message : String(error);
  process.emitWarning(`redisTurnEvents: ${redactText(message)}`, { code: "JUNE_REDIS_TURN_EVENTS" });
}
