import { projectChatTrace } from "../chat/trace/project-chat-trace.js";
import { hideFilePaths, redact, redactText, type TextRedactOptions } from "../redaction/redact.js";
import { excerpt, truncate } from "../chat/trace/excerpt.js";
import { endedError } from "../chat/errors.js";
import type { Turn, TurnCommand, TurnEvent, TurnResult } from "../chat/types.js";
import { StreamRedactor } from "../redaction/stream-redactor.js";
import type { TurnEndStreamEvent, TurnStreamEvent } from "./turn-stream-event.js";

/** An event of a live turn with its index (the SSE `id`). */
export interface IndexedTurnStreamEvent {
  index: number;
  event: TurnStreamEvent;
}

const MAX_ERROR_CHARS = 1_000;

/**
 * A turn the handler serves: it reads the turn's events once, as they come, turns each into its redacted,
 * projected `TurnStreamEvent`, and keeps them so any number of clients can read them from any index, while
 * the turn runs and after it ended. Reading never drives the turn: a client that goes away leaves it running.
 *
 * It is the `ServedTurn` of a turn this process runs: `control` applies a command to the turn itself.
 *
 * Once the turn ended only what replay needs is kept (its id, session id and projected events): the `Turn`
 * is let go, and with it the session it ran in (its whole journal) and its raw events, so the ended turns a
 * handler keeps for replay hold a few kilobytes each however long their session is.
 */
export class LiveTurn {
  readonly id: string;
  readonly sessionId: string;
  /** The handler's own redaction patterns, for whatever else is made of this turn (the UI stream). */
  readonly redaction: TextRedactOptions;
  #turn: Turn | undefined;
  readonly #events: TurnStreamEvent[] = [];
  #ended = false;
  #endedAt: number | undefined;
  #waiters: (() => void)[] = [];
  /** Resolves once the `turn-end` event is in (never rejects). */
  readonly done: Promise<void>;

  /** @param redaction Patterns of your own, masked after June's in every event (see `redactText`). */
  constructor(turn: Turn, now: () => number = Date.now, redaction: TextRedactOptions = {}) {
    this.redaction = redaction;
    this.id = turn.id;
    this.sessionId = turn.sessionId;
    this.#turn = turn;
    this.done = this.#pump(turn, now, redaction);
  }

  /** The turn while it runs (to approve, deny, cancel or steer it); `undefined` once its `turn-end` is in. */
  get turn(): Turn | undefined {
    return this.#turn;
  }

  /** True once the `turn-end` event is in. */
  get ended(): boolean {
    return this.#ended;
  }

  /** When the turn ended (epoch ms). */
  get endedAt(): number | undefined {
    return this.#endedAt;
  }

  /** How many events are in so far. */
  get length(): number {
    return this.#events.length;
  }

  /** The events so far (a read-only view). */
  get events(): readonly TurnStreamEvent[] {
    return this.#events;
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

  /**
   * The events from index `from` on, waiting for new ones until the turn ends or `signal` aborts.
   */
  async *read(from = 0, signal?: AbortSignal): AsyncGenerator<IndexedTurnStreamEvent, void, undefined> {
    let index = Math.max(0, from);
    for (;;) {
      if (signal?.aborted) return;
      if (index < this.#events.length) {
        const event = this.#events[index];
        yield { index, event };
        index++;
        continue;
      }
      if (this.#ended) return;
      await this.waitFor(index, signal);
    }
  }

  /** Resolves once there is an event at `index`, the turn ended, or `signal` aborted. */
  waitFor(index: number, signal?: AbortSignal): Promise<void> {
    if (index < this.#events.length || this.#ended || signal?.aborted) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const wake = () => {
        signal?.removeEventListener("abort", wake);
        resolve();
      };
      this.#waiters.push(wake);
      signal?.addEventListener("abort", wake, { once: true });
    });
  }

  #push(event: TurnStreamEvent): void {
    this.#events.push(event);
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const wake of waiters) wake();
  }

  async #pump(turn: Turn, now: () => number, redaction: TextRedactOptions): Promise<void> {
    this.#push({ type: "turn-start", turnId: turn.id, sessionId: turn.sessionId });
    // Deltas are a few characters each: a key split across them is only caught by redacting whole words.
    const text = new StreamRedactor(redaction);
    const flushText = () => {
      const rest = text.flush();
      if (rest !== "") this.#push({ type: "text-delta", text: rest });
    };
    try {
      for await (const event of turn) {
        if (event.type === "text-delta") {
          const safe = text.push(event.text);
          if (safe !== "") this.#push({ type: "text-delta", text: safe });
          continue;
        }
        // The text before a tool call is complete: show all of it while the turn waits for a decision.
        if (event.type === "approval-request") flushText();
        const projected = project(event, turn, redaction);
        if (projected) this.#push(projected);
      }
    } catch {
      // A turn's iteration ends normally even when it fails; the failure itself comes through `result`.
    }
    flushText();
    let end: TurnEndStreamEvent;
    try {
      end = completed(await turn.result, redaction);
    } catch (error) {
      end =
        turn.status === "canceled" || turn.status === "suspended"
          ? { type: "turn-end", status: turn.status }
          : { type: "turn-end", status: "failed", error: errorSummary(error, redaction) };
    }
    this.#ended = true;
    this.#endedAt = now();
    this.#turn = undefined;
    this.#push(end);
  }
}

/** A turn's own event as it leaves the server, or nothing when it cannot be shown safely. */
function project(event: TurnEvent, turn: Turn, redaction: TextRedactOptions): TurnStreamEvent | undefined {
  // Patterns of the user's own go over what June already projected and redacted.
  const own = <T,>(value: T): T => (redaction.patterns?.length ? redact(value, redaction) : value);
  switch (event.type) {
    case "text-delta":
      // Streamed through a `StreamRedactor` instead; one delta alone is redacted here.
      return { type: "text-delta", text: redactText(event.text, redaction) };
    case "run-update":
      try {
        return { type: "run-update", rows: own(projectChatTrace(event.tree, { requests: turn.requests })) };
      } catch {
        // A tree the projection does not understand (a custom responder's) is not worth failing the stream.
        return undefined;
      }
    case "approval-request": {
      const { request } = event;
      return {
        type: "approval-request",
        request: {
          id: request.id,
          stepId: request.stepId,
          toolName: request.toolName,
          toolCallId: request.toolCallId,
          input: own(excerpt(request.input)),
        },
      };
    }
    default: {
      const unreachable: never = event;
      void unreachable;
      return undefined;
    }
  }
}

function completed(result: TurnResult, redaction: TextRedactOptions): TurnEndStreamEvent {
  const end: TurnEndStreamEvent = { type: "turn-end", status: "completed", text: redactText(result.text, redaction) };
  if (result.metadata !== undefined) end.metadata = redact(result.metadata, redaction);
  return end;
}

/** A failure's name and message, redacted and bounded: never its stack or cause. */
export function errorSummary(error: unknown, redaction: TextRedactOptions = {}): { name: string; message: string } {
  if (error instanceof Error) {
    return { name: String(error.name || "Error"), message: truncate(hideFilePaths(redactText(String(error.message), redaction)), MAX_ERROR_CHARS) };
  }
  return { name: "Error", message: truncate(hideFilePaths(redactText(String(error), redaction)), MAX_ERROR_CHARS) };
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
  readonly #turns = new Map<string, LiveTurn>();
  /** The `LiveTurn` made for each `Turn` object (so tracking an ended turn again does not serve it twice). */
  readonly #served = new WeakMap<Turn, LiveTurn>();
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
  track(turn: Turn): LiveTurn {
    this.#prune();
    const existing = this.#turns.get(turn.id);
    if (existing && (!existing.ended || this.#served.get(turn) === existing)) return existing;
    const live = new LiveTurn(turn, this.#now, this.#redact);
    this.#turns.delete(turn.id);
    this.#turns.set(turn.id, live);
    this.#served.set(turn, live);
    return live;
  }

  get(turnId: string): LiveTurn | undefined {
    this.#prune();
    return this.#turns.get(turnId);
  }

  /** The session's most recently tracked turn, running or recently ended. */
  latestForSession(sessionId: string): LiveTurn | undefined {
    this.#prune();
    let latest: LiveTurn | undefined;
    for (const live of this.#turns.values()) if (live.sessionId === sessionId) latest = live;
    return latest;
  }

  /** Forgets every turn of a session (after it was deleted). */
  forgetSession(sessionId: string): void {
    for (const [id, live] of this.#turns) if (live.sessionId === sessionId && live.ended) this.#turns.delete(id);
  }

  #prune(): void {
    const now = this.#now();
    const ended: [string, LiveTurn][] = [];
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
