import type { ModelMessage } from "ai";
import { SessionBusyError } from "../stores/errors.js";
import type { ChatStore, ResponderProvenance } from "../stores/types.js";
import { rebuildContext } from "./context/rebuild-context.js";
import { resolveContext } from "./context/resolve-context.js";
import { summariesOf } from "./context/summarized-context.js";
import { TurnNotCompletedError, TurnNotFoundError } from "./errors.js";
import { normalizeFeedback } from "./feedback.js";
import { validateInput } from "./input.js";
import { replayTurn } from "./replay.js";
import { runTurn } from "./run-turn.js";
import type { SessionJournal } from "./session-journal.js";
import { TurnController } from "./turn.js";
import type { Telemetry } from "../telemetry/options.js";
import type { ContextBuilder, Responder, ResponderResult, Session, Turn, TurnFeedback, TurnRecord } from "./types.js";

/** What a session shares with its chat. */
export interface SessionHost {
  readonly store: ChatStore;
  readonly responder: Responder;
  readonly provenance: ResponderProvenance;
  readonly context: ContextBuilder;
  readonly maxInputChars: number;
  newId(kind: "turn"): string;
  /** The chat's turns running in this process, by session id. */
  readonly running: Map<string, TurnController>;
  /** The chat's telemetry; undefined when its `telemetry` is `false`. */
  readonly telemetry: Telemetry | undefined;
}

/**
 * A conversation: its history (kept in memory after it opens and updated as turns are journaled), the
 * journal and each turn's lifecycle.
 */
export class ChatSession implements Session {
  readonly id: string;
  readonly #host: SessionHost;
  readonly #journal: SessionJournal;

  constructor(host: SessionHost, journal: SessionJournal) {
    this.#host = host;
    this.#journal = journal;
    this.id = journal.sessionId;
  }

  get currentTurn(): Turn | undefined {
    return this.#host.running.get(this.id)?.turn;
  }

  /**
   * Starts a turn at once and returns it. Throws `TypeError` for an input that is not a non-empty string,
   * `InputTooLargeError` past the chat's `maxInputChars`, and `SessionBusyError` while a turn of this
   * process runs in the session. When another process holds the session, the turn fails with
   * `SessionBusyError` before anything is journaled.
   */
  send(input: string): Turn {
    return this.#start(input, undefined);
  }

  /**
   * Answers a turn's input again (the current branch's last turn by default) in a new turn on a new branch
   * from that turn's parent, made current. `TurnNotFoundError` for an unknown turn; otherwise as `send`.
   */
  regenerate(turnId?: string): Turn {
    const id = turnId ?? this.#journal.leafId;
    if (id === undefined) throw new TurnNotFoundError(this.id, "(the last turn: the session has none)");
    const record = this.#known(id, "regenerate");
    return this.#start(record.input, { turnId: record.parentTurnId });
  }

  /** Sends `input` in a turn's place: a new turn on a new branch from that turn's parent, made current. */
  edit(turnId: string, input: string): Turn {
    const record = this.#known(turnId, "edit");
    return this.#start(input, { turnId: record.parentTurnId });
  }

  /** The alternatives at a turn's position: the turns sharing its parent (itself included), oldest first. */
  async branches(turnId: string): Promise<TurnRecord[]> {
    await this.#journal.catchUp();
    const record = this.#known(turnId, "branches");
    return this.#copies(this.#journal.children(record.parentTurnId));
  }

  /**
   * Makes the branch through a turn current, down to its newest turn, and journals it (unless it is current
   * already) so a reopened session comes back on it. Resolves to the branch's turns.
   */
  async checkout(turnId: string): Promise<TurnRecord[]> {
    await this.#journal.catchUp();
    this.#known(turnId, "checkout");
    const running = this.#host.running.get(this.id);
    if (running) throw new SessionBusyError(this.id, `turn "${running.id}" is running in this process`);
    const leaf = this.#journal.newestThrough(turnId)!;
    if (leaf.id !== this.#journal.leafId) await this.#journal.append([{ type: "checkout", turnId: leaf.id }]);
    return this.turns();
  }

  /**
   * Revokes a tool's approval for the session (given by `turn.approve(id, { remember: "session" })`): journals
   * an `approval` entry with `approved: false, remember: "session"` and no request, so later calls of the
   * tool ask again, in running turns too. Resolves to `false` (and journals nothing) when the tool was not
   * approved for the session. `TypeError` for a `toolName` that is not a non-empty string.
   */
  async revokeApproval(toolName: string): Promise<boolean> {
    if (typeof toolName !== "string" || toolName.length === 0) {
      throw new TypeError(`session.revokeApproval(toolName): toolName must be a non-empty string, got ${typeof toolName}`);
    }
    await this.#journal.catchUp();
    if (!this.#journal.rememberedTools.has(toolName)) return false;
    const revocation = { type: "approval", toolName, approved: false, remember: "session" } as const;
    await this.#journal.append([revocation]);
    return true;
  }

  /** The tools approved for the session (and not revoked since), sorted by name. */
  async rememberedApprovals(): Promise<string[]> {
    await this.#journal.catchUp();
    return [...this.#journal.rememberedTools].sort();
  }

  /**
   * Answers a turn's input again with exactly the context it was answered with, rebuilt from its
   * provenance (its summary and earlier turns), by the chat's responder or `options.responder`. Nothing is
   * journaled; resolves to the responder's result (`{ text, metadata }`). The turn's steers are not sent.
   */
  async replay(turnId: string, options: { responder?: Responder } = {}): Promise<ResponderResult> {
    await this.#journal.catchUp();
    const record = this.#known(turnId, "replay");
    const journal = this.#journal;
    const messages = rebuildContext(record, journal.pathTo(record.parentTurnId), { summaries: summariesOf(journal.entries) });
    return replayTurn({ responder: options.responder ?? this.#host.responder, sessionId: this.id, turnId, input: record.input, messages });
  }

  #known(turnId: string, method: string): TurnRecord {
    if (typeof turnId !== "string" || turnId.length === 0) {
      throw new TypeError(`session.${method}(turnId): turnId must be a non-empty string, got ${typeof turnId}`);
    }
    const record = this.#journal.record(turnId);
    if (!record) throw new TurnNotFoundError(this.id, turnId);
    return record;
  }

  #start(input: string, parent: { turnId: string | undefined } | undefined): Turn {
    const host = this.#host;
    validateInput(input, host.maxInputChars);
    const running = host.running.get(this.id);
    if (running) throw new SessionBusyError(this.id, `turn "${running.id}" is running in this process`);
    const controller = new TurnController({
      id: host.newId("turn"),
      sessionId: this.id,
      journal: this.#journal,
      maxInputChars: host.maxInputChars,
    });
    host.running.set(this.id, controller);
    void runTurn({
      turn: controller,
      input,
      responder: host.responder,
      provenance: host.provenance,
      context: host.context,
      journal: this.#journal,
      store: host.store,
      telemetry: host.telemetry,
      ...(parent ? { parent } : {}),
      onDone: () => {
        if (host.running.get(this.id) === controller) host.running.delete(this.id);
      },
    });
    return controller.turn;
  }

  /**
   * The current branch's journaled turns, oldest first. A turn that started and never ended reads `interrupted`, unless it
   * is the turn running now in this process (`running`).
   */
  async turns(): Promise<TurnRecord[]> {
    await this.#journal.catchUp();
    return this.#copies(this.#journal.branch);
  }

  #copies(records: readonly TurnRecord[]): TurnRecord[] {
    const runningId = this.#host.running.get(this.id)?.id;
    return records.map((record) => ({
      ...record,
      steers: record.steers.map((steer) => ({ ...steer })),
      status: record.status === "interrupted" && record.id === runningId ? "running" : record.status,
    }));
  }

  /**
   * Journals feedback on a completed turn (see `normalizeFeedback` for what is accepted); the latest
   * feedback on a turn supersedes the earlier. `TurnNotFoundError` for a turn this session does not have,
   * `TurnNotCompletedError` for one that is running or did not complete.
   */
  async feedback(turnId: string, feedback: TurnFeedback): Promise<TurnFeedback> {
    if (typeof turnId !== "string" || turnId.length === 0) {
      throw new TypeError(`session.feedback(turnId, feedback): turnId must be a non-empty string, got ${typeof turnId}`);
    }
    const normalized = normalizeFeedback(feedback);
    await this.#journal.catchUp();
    const record = this.#journal.record(turnId);
    if (!record) throw new TurnNotFoundError(this.id, turnId);
    if (record.status !== "completed") {
      const running = record.status === "interrupted" && this.#host.running.get(this.id)?.id === turnId;
      throw new TurnNotCompletedError(this.id, turnId, running ? "running" : record.status);
    }
    await this.#journal.append([{ type: "feedback", turnId, ...normalized }]);
    return normalized;
  }

  /** What the chat's context would send for the next turn. */
  async messages(): Promise<ModelMessage[]> {
    await this.#journal.catchUp();
    const { messages } = await resolveContext(this.#host.context, this.#journal.branch.slice(), {
      sessionId: this.id,
      input: "",
      entries: this.#journal.entries,
    });
    return messages;
  }
}
