import { DEFAULT_MAX_INPUT_CHARS } from "../chat/input.js";
import type { Chat, Turn } from "../chat/types.js";
import { redact, type TextRedactOptions } from "../redaction/redact.js";
import { type JsonObject, readJsonObject, requireString } from "./body.js";
import { HttpError, jsonResponse } from "./http-error.js";
import type { ServedTurn, TurnEventBus } from "./turn-event-bus.js";
import { type LocalTurn, TurnRegistry } from "./turn-registry.js";

/** What `/ui-chat` does when its client goes away mid-stream (`useChat`'s `stop()`, a closed tab), and what it sends beside the reply's text. */
export interface UiChatOptions {
  /**
   * Cancel the turn when the client aborts the request before the stream ended (default `true`, so
   * `stop()` stops the turn and the journal says `canceled`). `false` keeps the turn running, as the plain
   * SSE routes always do, for apps that rejoin a turn's stream instead.
   */
  cancelOnDisconnect?: boolean;
  /**
   * Send the turn's live trace as a `data-june-trace` data part: each `run-update`'s rows (`JuneTraceData`, from
   * `june/stream`), one part per message that each snapshot replaces. Default: on for agent and custom
   * responders, off for a model chat (`createChat({ model })`), whose trace is its model calls.
   */
  sendTrace?: boolean;
  /** Send the model's reasoning as `reasoning-start`/`-delta`/`-end` chunks (default `true`, as the AI SDK's `sendReasoning`). */
  sendReasoning?: boolean;
  /**
   * Send the sources the model cites as `source-url`/`source-document` chunks (default `true`, where the AI
   * SDK's `sendSources` is off: June keeps a reply's sources with it, and `/ui-messages` shows them after a reload).
   */
  sendSources?: boolean;
}

/** What `createChatHandler` builds its context from (its own options, checked). */
export interface HandlerContextOptions {
  turnEvents: TurnEventBus;
  redact: TextRedactOptions;
  maxBodyBytes: number;
  keepAliveMs: number;
  maxEndedTurns?: number;
  endedTurnTtlMs?: number;
  uiChat?: UiChatOptions;
}

/**
 * What every route of one handler shares, owned by that handler (nothing lives in module state): the chat,
 * the turns it serves, the bus to the other processes, and the three things every route does the same way:
 * read a body, answer JSON (always redacted) and check an input against the chat's one size limit.
 */
export class HandlerContext {
  readonly chat: Chat;
  /** The turns this process serves (running, and ended ones kept for replay). */
  readonly registry: TurnRegistry;
  /** Where turns are shared with other processes. */
  readonly turnEvents: TurnEventBus;
  readonly keepAliveMs: number;
  readonly uiChat: UiChatOptions;
  /** The user's own redaction patterns, for every response. */
  readonly redaction: TextRedactOptions;
  /** The chat's `maxInputChars`: a longer input is a 413 before any session is opened. */
  readonly maxInputChars: number;
  readonly #maxBodyBytes: number;

  constructor(chat: Chat, options: HandlerContextOptions) {
    this.chat = chat;
    this.redaction = options.redact;
    this.registry = new TurnRegistry({ maxEndedTurns: options.maxEndedTurns, endedTurnTtlMs: options.endedTurnTtlMs, redact: options.redact });
    this.turnEvents = options.turnEvents;
    this.keepAliveMs = options.keepAliveMs;
    this.uiChat = { ...options.uiChat };
    this.maxInputChars = chat.maxInputChars ?? DEFAULT_MAX_INPUT_CHARS;
    this.#maxBodyBytes = options.maxBodyBytes;
  }

  /** Serves a turn this process runs: tracked here, and published on `turnEvents` (resolves once it is). */
  async track(turn: Turn): Promise<LocalTurn> {
    const live = this.registry.track(turn);
    await this.turnEvents.publish(live);
    return live;
  }

  /**
   * A turn this process runs, else one another process runs (through `turnEvents`), if any. With `running`, a
   * turn that ended (a suspended one, kept for replay) or whose process died does not count: it can only be resumed.
   * This process's copy of a turn that suspended here gives way to the turn another process resumed under its id.
   */
  async find(turnId: string, options: { running?: boolean } = {}): Promise<ServedTurn | undefined> {
    const live = this.registry.get(turnId);
    if (live && !live.suspended) return options.running && live.ended ? undefined : live;
    if (!live) return (await this.elsewhere(() => this.turnEvents.find(turnId, options))) ?? undefined;
    // A turn that suspended here may have been resumed by another process since: the bus then serves that
    // process's copy (the bus answers with `live` itself while it is still this process's), and this one is
    // stale. A bus that cannot answer leaves this copy (what resumes the turn still takes the session's lease).
    const found = await this.turnEvents.find(turnId, options).catch(() => undefined);
    if (found && found !== live) {
      this.registry.forget(live);
      return found;
    }
    return options.running ? undefined : live;
  }

  /** Like `find`, but a turn no process has is a 404. */
  async served(turnId: string): Promise<ServedTurn> {
    const found = await this.find(turnId);
    if (!found) throw new HttpError(404, `No live or recent turn "${turnId}"`);
    return found;
  }

  /** Asks the other processes (through `turnEvents`); a bus that cannot answer is a 503, not a 500. */
  async elsewhere<T>(ask: () => Promise<T>): Promise<T> {
    try {
      return await ask();
    } catch (error) {
      throw new HttpError(503, "The turns of other processes cannot be reached right now", { cause: error });
    }
  }

  /** The handler's `maxBodyBytes`: the largest body a route reads (one that takes files reads more: `fileBodyBytes`). */
  get maxBodyBytes(): number {
    return this.#maxBodyBytes;
  }

  /** The request's JSON object body, within the handler's `maxBodyBytes` (see `readJsonObject`). */
  body(request: Request, options: { allowEmpty?: boolean } = {}): Promise<JsonObject> {
    return readJsonObject(request, { maxBytes: this.#maxBodyBytes, allowEmpty: options.allowEmpty });
  }

  /** A required, non-empty input field within the chat's `maxInputChars` (413 past it). */
  input(fields: JsonObject, field = "input"): string {
    return requireString(fields, field, { nonEmpty: true, maxChars: this.maxInputChars });
  }

  /** A JSON answer, redacted (June's patterns and the handler's own) whatever the route put in it. */
  json(status: number, body: unknown, headers?: Record<string, string>): Response {
    return jsonResponse(status, redact(body, this.redaction), headers);
  }
}
