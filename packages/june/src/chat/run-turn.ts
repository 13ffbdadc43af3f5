import type { JournaledAsides } from "./internal/reply-asides.js";
import type { ApprovalRequest } from "../runtime/types.js";
import { SessionBusyError } from "../stores/errors.js";
import { guardrailTrip } from "../errors/guardrail-tripped-error.js";
import { errorInfo } from "./stream/error-info.js";
import type { ChatStore, FileRef, NewJournalEntry, ResponderProvenance, TurnLease, TurnMetadata } from "../stores/types.js";
import { rebuildContext } from "./context/rebuild-context.js";
import { isHistoryOnly } from "./context/history-only.js";
import { resolveContext, type ResolvedContext } from "./context/resolve-context.js";
import { decodeCheckpoint, encodeCheckpoint, type DurableSettings } from "./durable/checkpoint-codec.js";
import { ResponderContractError, TurnNotResumableError } from "./errors.js";
import type { SessionJournal } from "./session-journal.js";
import { followExecution, ignoreRejection } from "./follow-execution.js";
import type { TurnController } from "./turn.js";
import type { TurnOutcome } from "./turn-outcome.js";
import type { ContextBuilder, Responder, ResponderCheckpoint, ResponderExecution, RespondOptions, Turn, TurnRecord } from "./types.js";
import { within } from "../telemetry/ai-sdk.js";
import { conversationAgent, turnMetadata } from "./turn-metadata.js";
import type { Telemetry } from "../telemetry/options.js";
import type { Prices } from "../cost/price.js";
import type { Budget, Spent } from "../cost/budget.js";
import { sessionSpend } from "../stores/session-cost.js";
import { TurnSpans } from "./turn-spans.js";
import { isUnfinished } from "./unfinished.js";
import { prepareResponder } from "./responders/prepare.js";
import { fileRefOf, loadTurnFiles, referenceStateFiles, storeTurnFiles, withFileBytes, withStateFileBytes, type TurnFiles } from "./files/session-files.js";
import { userMessage, type TurnFile } from "./files/turn-input.js";
import { withMemory, indexFinishedTurn, type MemoryContext } from "./memory/turn-memory.js";
import type { ChatMemory } from "./memory/chat-memory.js";

/** Everything one turn's run needs from its chat and session. */
export interface RunTurnOptions {
  turn: TurnController;
  input: string;
  /** The turn's files: those just sent with their bytes (stored before the turn starts), earlier ones by reference. */
  files?: TurnFiles["files"];
  responder: Responder;
  provenance: ResponderProvenance;
  context: ContextBuilder;
  journal: SessionJournal;
  store: ChatStore;
  /**
   * Where the turn goes: a new branch from this parent (`turnId` undefined: a new first turn), for
   * `regenerate` and `edit`. Left out, the turn continues the current branch.
   */
  parent?: { turnId: string | undefined };
  /** Called once the journal and the lease are done, right before the turn's result settles. */
  onDone(): void;
  /** Set when the responder's turns are durable (checkpointed, suspended, resumable). */
  durable?: DurableSettings;
  /** The chat's telemetry; undefined when it is off. */
  telemetry?: Telemetry | undefined;
  /** The chat's prices, handed to the responder. */
  prices?: Prices;
  /** The chat's budgets, handed to the responder with what the session spent before the turn. */
  budget?: Budget;
  /** The chat's memory (`createChat({ memory })`): loaded into the turn's context, the turn indexed after it ends. */
  memory?: ChatMemory;
}

/**
 * Runs one turn: takes the session's lease (`SessionBusyError` if another process holds it: nothing is
 * journaled, the responder is not called), builds the context, journals `turn-start` (with a builder that only
 * reads the session, and a store that can, the context is built first and the lease and the `turn-start` are one
 * store call: `leasedStart`), runs the responder
 * until its `result` resolves and its `events` end (or the turn is canceled, or either fails), journals
 * `turn-end` durably, releases the lease, and only then settles the turn's result.
 */
export async function runTurn(options: RunTurnOptions): Promise<void> {
  const { turn, journal, store } = options;
  let lease: TurnLease | undefined;
  let started = false;
  let outcome: TurnOutcome;
  if (options.telemetry) {
    turn.traceWith(TurnSpans.start(options.telemetry, { sessionId: turn.sessionId, turnId: turn.id, provenance: options.provenance, input: options.input }));
  }
  try {
    // The bytes first, beside the journal: the turn-start then refers to them.
    const files = options.files && options.files.length > 0 ? await storeTurnFiles(store, journal.sessionId, options.files) : NO_FILES;
    const leased = await leasedStart(options);
    let context: MemoryContext;
    if (leased) ({ lease, context } = leased);
    else {
      lease = await store.acquireTurn(journal.sessionId);
      context = await buildContext(options);
      await journal.append(startEntries(options, context), {
        // Another writer moved the journal: rebuild the context from the fresh history.
        onConflict: async () => {
          context = await buildContext(options);
          return startEntries(options, context);
        },
      });
    }
    started = true;
    context = { ...context, messages: await withFileBytes(context.messages, store, journal.sessionId) };
    outcome = turn.cancelRequested ? { status: "canceled" } : await respond(options, context, files);
  } catch (error) {
    outcome = turn.cancelRequested && started ? { status: "canceled" } : { status: "failed", error };
  }
  await endTurn(options, outcome, started, lease);
  if (options.memory) indexFinishedTurn(options.memory, journal, turn.id);
}

/** Journals how the turn ended (or that it suspended), releases the lease and only then settles the turn. */
async function endTurn(options: Pick<RunTurnOptions, "turn" | "journal" | "store" | "durable" | "onDone" | "provenance">, outcome: TurnOutcome, started: boolean, lease: TurnLease | undefined): Promise<void> {
  const { turn, journal, store } = options;
  // A guardrail's trip is not a failure: the turn is blocked, and says why.
  const trip = outcome.status === "failed" ? guardrailTrip(outcome.error) : undefined;
  if (trip) outcome = { status: "blocked", error: trip };
  turn.closeControls();
  // No checkpoint is written after this: the turn-end below deletes the last one, and none may come back.
  if (options.durable) await turn.closeCheckpoints();
  const writeError = await turn.settleWrites();
  if (writeError !== undefined && outcome.status === "completed") outcome = { status: "failed", error: writeError };
  if (started) {
    try {
      if (outcome.status === "suspended") {
        await journal.append([{ type: "turn-suspend", turnId: turn.id, requests: outcome.requests }], { sync: true });
      } else {
        await journal.append([endEntry(turn.id, outcome, turn.streamedText, spentMetadata(options.provenance, outcome, turn.execution), turn.journaledAsides())], {
          sync: true,
          ...(options.durable ? { deleteCheckpoint: turn.id } : {}),
          ...(lease ? { endsLease: lease } : {}),
        });
      }
    } catch (error) {
      // A suspend that could not be journaled still has its checkpoint: the turn reads back interrupted, resumable.
      if (outcome.status !== "failed" && outcome.status !== "suspended") outcome = { status: "failed", error };
    }
  }
  if (lease) {
    try {
      await store.releaseTurn(lease);
    } catch {
      // A lease that cannot be released expires; the turn's outcome stands.
    }
  }
  options.onDone();
  turn.endSpans(
    outcome.status === "completed"
      ? { status: "completed", text: outcome.result.text, metadata: outcome.metadata }
      : outcome.status === "suspended"
        ? { status: "suspended" }
        : outcome,
  );
  turn.finish(outcome);
}

/** What `resumeTurn` needs: the chat's parts and a promise to settle with the live turn once it is restored. */
export interface ResumeTurnOptions extends Omit<RunTurnOptions, "input" | "files" | "context" | "parent" | "durable"> {
  durable: DurableSettings;
  /** Resolved with the live turn once its requests are open again; rejected when it cannot resume. */
  ready: { resolve(turn: Turn): void; reject(error: unknown): void };
}

/**
 * Continues a suspended or interrupted durable turn: takes the session's lease, checks the turn is still
 * unfinished, reads and decodes its checkpoint, rebuilds the messages it was answered with from its context
 * provenance and calls `responder.resume`. Until then nothing is journaled and a failure leaves the turn as
 * it was (`ready` rejects); from then on the turn runs and ends like any other.
 */
export async function resumeTurn(options: ResumeTurnOptions): Promise<void> {
  const { turn, journal, store, responder } = options;
  let lease: TurnLease | undefined;
  let execution: ResponderExecution;
  try {
    lease = await store.acquireTurn(journal.sessionId);
    await journal.catchUp();
    const record = journal.record(turn.id);
    if (!record) throw new TurnNotResumableError(journal.sessionId, turn.id, "the session has no such turn");
    if (!isUnfinished(record.status)) {
      throw new TurnNotResumableError(journal.sessionId, turn.id, `it is ${record.status}`);
    }
    const stored = await store.getCheckpoint!(journal.sessionId, turn.id);
    if (!stored) throw new TurnNotResumableError(journal.sessionId, turn.id, "it has no checkpoint (it was not durable, or it ended)");
    const envelope = decodeCheckpoint(stored.data, journal.sessionId, turn.id, options.durable.key);
    const messages = await withFileBytes(rebuildContext(record, journal.pathTo(record.parentTurnId), { summaries: journal.summaries() }), store, journal.sessionId);
    const files = record.files ? await loadTurnFiles(store, journal.sessionId, record.files) : NO_FILES;
    if (options.telemetry) {
      turn.traceWith(TurnSpans.resume(options.telemetry, { sessionId: journal.sessionId, turnId: turn.id, provenance: options.provenance, input: record.input }, envelope.trace));
    }
    const resumeOptions: Parameters<NonNullable<Responder["resume"]>>[0] = {
      checkpoint: await withStateFileBytes(envelope.state, store, journal.sessionId),
      input: record.input,
      ...(files.length > 0 ? { files } : {}),
      message: userMessage(record.input, files),
      messages,
      signal: turn.abort.signal,
      sessionId: journal.sessionId,
      turnId: turn.id,
      onCheckpoint: checkpointWriter(options, options.durable),
    };
    const agent = responder.agents ? conversationAgent(record.parentTurnId, (id) => journal.record(id)) : undefined;
    if (agent !== undefined) resumeOptions.agent = agent;
    // The memory the turn started with (its provenance says which), so its workflow renders as it did then.
    if (options.memory) resumeOptions.memory = await options.memory.restore(journal.sessionId, record.context?.memory);
    if (turn.spans) resumeOptions.telemetry = turn.spans.settings;
    else if (!options.telemetry) resumeOptions.telemetry = false;
    if (options.prices) resumeOptions.prices = options.prices;
    if (options.budget) {
      resumeOptions.budget = options.budget;
      resumeOptions.spent = sessionSpent(journal, turn.id);
    }
    await prepareResponder(responder);
    execution = within(turn.spans, () => responder.resume!(resumeOptions));
    contractProblem(execution);
  } catch (error) {
    turn.endSpans({ status: "failed", error });
    if (lease) await store.releaseTurn(lease).catch(() => {});
    options.onDone();
    options.ready.reject(error);
    return;
  }
  const following = followExecution(options, execution);
  void Promise.race([Promise.resolve(execution.restored).catch(() => {}), following]).then(() => options.ready.resolve(turn.turn));
  let outcome: TurnOutcome;
  try {
    outcome = await following;
  } catch (error) {
    outcome = { status: "failed", error };
  }
  await endTurn(options, outcome, true, lease);
  if (options.memory) indexFinishedTurn(options.memory, journal, turn.id);
}

/** Stores each checkpoint of a durable turn (encoded, maybe encrypted) unless the turn is ending. */
function checkpointWriter(options: Pick<RunTurnOptions, "turn" | "journal" | "store" | "provenance">, durable: DurableSettings) {
  const { turn, journal, store } = options;
  return (checkpoint: ResponderCheckpoint): Promise<void> =>
    turn.writeCheckpoint(async () => {
      const requests = checkpoint.requests.map(
        (r): ApprovalRequest => ({
          id: r.id,
          stepId: r.stepId,
          toolName: r.toolName,
          toolCallId: r.toolCallId,
          input: r.input,
          ...(r.mcp ? { mcp: r.mcp } : {}),
          ...(r.retry ? { retry: true } : {}),
        }),
      );
      const link = turn.spans?.link;
      // The session's files as references, never their bytes (put back on resume).
      const state = referenceStateFiles(checkpoint.state, sessionFileIds(journal, turn.files));
      const data = encodeCheckpoint(
        { version: 1, turnId: turn.id, responder: options.provenance, requests, state, ...(link ? { trace: link } : {}) },
        journal.sessionId,
        durable.key,
      );
      await store.putCheckpoint!(journal.sessionId, turn.id, data);
      turn.checkpointSaved(requests.map((request) => request.id));
    });
}

/**
 * Refuses a new turn while the session has an unfinished durable one (suspended, or interrupted with a
 * checkpoint): a reply must never land after a later turn. `SessionBusyError` names the waiting turn.
 */
async function assertNoUnfinished(options: RunTurnOptions): Promise<void> {
  const { journal, store } = options;
  if (journal.unfinishedCount === 0) return;
  const unfinished = journal.records.filter((r) => r.id !== options.turn.id && isUnfinished(r.status));
  if (unfinished.length === 0) return;
  const suspended = unfinished.find((r) => r.status === "suspended");
  if (suspended) throw waitingTurn(journal.sessionId, suspended);
  if (typeof store.listCheckpoints !== "function") return;
  const ids = new Set((await store.listCheckpoints(journal.sessionId)).map((c) => c.turnId));
  const resumable = unfinished.find((r) => ids.has(r.id));
  if (resumable) throw waitingTurn(journal.sessionId, resumable);
}

/** The error of a new turn in a session whose durable turn waits. */
export function waitingTurn(sessionId: string, record: TurnRecord): SessionBusyError {
  return new SessionBusyError(
    sessionId,
    `turn "${record.id}" is ${record.status} and waits on approval: resume it (session.resume) or cancel it (session.cancel) first`,
  );
}

/**
 * The turn's lease and its `turn-start` in one store call (`acquireTurnAndAppend`), when the store can and the
 * context may be built before the lease is held: a builder that only reads the session (`isHistoryOnly`), in a
 * session with no unfinished turn (a new turn must not start beside one waiting on approval, which only a check
 * under the lease can rule out). The context is built from the session as this process knows it, and the store
 * writes only if the journal is still there; when it moved on (another process's turn), once more from what is
 * new. Undefined, nothing written, when the store cannot, another holder has the lease, the journal moved on
 * again, or the builder threw: the turn then takes the lease, builds and journals as with any builder, and
 * meets the same error or busy session there.
 */
async function leasedStart(options: RunTurnOptions): Promise<{ lease: TurnLease; context: MemoryContext } | undefined> {
  const { journal, store } = options;
  if (typeof store.acquireTurnAndAppend !== "function" || !isHistoryOnly(options.context)) return undefined;
  for (let attempt = 0; attempt < 2; attempt++) {
    if (journal.unfinishedCount !== 0) return undefined;
    const expectedSeq = journal.lastSeq;
    let context: MemoryContext;
    try {
      context = await buildContext(options);
    } catch {
      return undefined;
    }
    const outcome = await journal.acquireAndAppend(startEntries(options, context), { expectedSeq });
    if (outcome === "busy") return undefined;
    if (outcome !== "moved") return { lease: outcome, context };
  }
  return undefined;
}

async function buildContext(options: RunTurnOptions): Promise<MemoryContext> {
  const { journal } = options;
  await assertNoUnfinished(options);
  // The turn's branch up to its parent; a copy of the list (not of the records): a builder cannot reorder it.
  const history = options.parent ? journal.pathTo(options.parent.turnId) : journal.branch.slice();
  const built = resolveContext(options.context, history, {
    sessionId: journal.sessionId,
    input: options.input,
    ...(options.files && options.files.length > 0 ? { files: options.files.map(fileRefOf) } : {}),
    scope: journal.scope,
    // Made only for a builder that reads them (the journal rebuilds its turns' entries from their records).
    get entries() {
      return journal.entries;
    },
  });
  // Memory is read beside the builder (the embedding call and the store's reads), not after it.
  return options.memory ? withMemory(built, options.memory.load(journal.sessionId, options.input)) : built;
}

/** The turn's `turn-start`, after the `summary` its context just wrote, if any (one atomic append). */
function startEntries(options: RunTurnOptions, context: ResolvedContext): NewJournalEntry[] {
  const { journal } = options;
  const parentTurnId = options.parent ? options.parent.turnId : journal.leafId;
  const entries: NewJournalEntry[] = [];
  // A new first turn while a branch is current: a turn-start with no parent would continue that branch.
  if (parentTurnId === undefined && journal.leafId !== undefined) entries.push({ type: "checkout" });
  if (context.summary) {
    entries.push({ type: "summary", throughTurnId: context.summary.throughTurnId, text: context.summary.text });
  }
  entries.push({
    type: "turn-start",
    turnId: options.turn.id,
    input: options.input,
    ...(parentTurnId !== undefined ? { parentTurnId } : {}),
    context: context.provenance,
    // After the context: a turn-start's head (through `"context":{`) is what a journal's reader matches fast.
    ...(options.files && options.files.length > 0 ? { files: options.files.map(fileRefOf) } : {}),
  });
  return entries;
}

/**
 * What a turn that ends without a result (failed, blocked, canceled) spent, from its execution (`spent()`):
 * undefined when it spent no token (or its responder does not say).
 */
function spentMetadata(provenance: ResponderProvenance, outcome: TurnOutcome, execution: ResponderExecution | undefined): TurnMetadata | undefined {
  if (outcome.status === "completed" || outcome.status === "suspended" || typeof execution?.spent !== "function") return undefined;
  let reported: unknown;
  try {
    reported = execution.spent();
  } catch {
    return undefined;
  }
  const metadata = turnMetadata(provenance, reported);
  return sessionSpend([{ metadata }]).tokens > 0 ? metadata : undefined;
}

/**
 * The turn-end of an outcome. A canceled turn keeps the reply streamed until then (`streamed`, the turn's
 * `text-delta`s joined), cut where it stopped; its status says it was cut. A turn that ends without a result
 * keeps what it spent (`spent`), so the session's cost and budget count it. A completed or canceled turn keeps
 * the sources its model cited, and its reasoning when the chat journals it (`asides`).
 */
export function endEntry(turnId: string, outcome: TurnOutcome, streamed = "", spent?: TurnMetadata, asides: JournaledAsides = {}): NewJournalEntry {
  const metadata = spent ? { metadata: spent } : {};
  switch (outcome.status) {
    case "completed":
      return { type: "turn-end", turnId, status: "completed", text: outcome.result.text, ...asides, metadata: outcome.metadata };
    case "failed":
      return { type: "turn-end", turnId, status: "failed", error: errorInfo(outcome.error), ...metadata };
    case "canceled":
      return { type: "turn-end", turnId, status: "canceled", ...(streamed !== "" ? { text: streamed } : {}), ...asides, ...metadata };
    case "blocked":
      // The reply (streamed or not) is not kept: the refusal stands in for it.
      return { type: "turn-end", turnId, status: "blocked", error: errorInfo(outcome.error), ...metadata };
    case "suspended":
      // Internal invariant: the runner journals a suspension with suspendEntry and never asks for its end entry.
      throw new Error("june: a suspended turn journals turn-suspend, not turn-end");
    default: {
      const unknown: never = outcome;
      return unknown;
    }
  }
}

/** Calls the responder and waits for its result and events, a failure of either, or the turn's cancel. */
async function respond(options: RunTurnOptions, context: MemoryContext, files: readonly TurnFile[]): Promise<TurnOutcome> {
  const { turn, responder } = options;
  let execution: ResponderExecution;
  try {
    const respondOptions = responderOptions(options, context, files);
    execution = within(turn.spans, () => responder.respond(respondOptions));
  } catch (error) {
    return { status: "failed", error };
  }
  try {
    contractProblem(execution);
  } catch (error) {
    if (typeof execution === "object" && execution !== null && isThenable(execution.result)) ignoreRejection(execution.result);
    return { status: "failed", error };
  }
  return followExecution(options, execution);
}

/** What the responder gets: input, context, the turn's signal, checkpoints when durable, telemetry. */
function responderOptions(options: RunTurnOptions, context: MemoryContext, files: readonly TurnFile[]): RespondOptions {
  const { turn } = options;
  const respondOptions: RespondOptions = {
    input: options.input,
    ...(files.length > 0 ? { files } : {}),
    message: userMessage(options.input, files),
    messages: context.messages,
    signal: turn.abort.signal,
    sessionId: turn.sessionId,
    turnId: turn.id,
  };
  // For a responder of several agents, the one that holds the conversation: what the turns before this one say.
  const { journal } = options;
  const agent = options.responder.agents ? conversationAgent(journal.record(turn.id)?.parentTurnId, (id) => journal.record(id)) : undefined;
  if (agent !== undefined) respondOptions.agent = agent;
  if (options.durable) respondOptions.onCheckpoint = checkpointWriter(options, options.durable);
  if (turn.spans) respondOptions.telemetry = turn.spans.settings;
  else if (!options.telemetry) respondOptions.telemetry = false;
  if (options.prices) respondOptions.prices = options.prices;
  if (options.budget) {
    respondOptions.budget = options.budget;
    respondOptions.spent = sessionSpent(options.journal, turn.id);
  }
  if (context.memory) respondOptions.memory = context.memory;
  return respondOptions;
}

/** Throws `ResponderContractError` when an execution breaks the contract (no `result`, bad `events`). */
function contractProblem(execution: ResponderExecution): void {
  if (typeof execution !== "object" || execution === null || !isThenable(execution.result)) {
    throw new ResponderContractError("respond() must return an execution with a `result` promise");
  }
  const events: unknown = execution.events;
  if (events !== undefined && events !== null && !isAsyncIterable(events)) {
    throw new ResponderContractError("The execution's `events` must be an async iterable of turn events, or left out");
  }
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return (
    (typeof value === "object" || typeof value === "function") &&
    value !== null &&
    typeof (value as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === "function"
  );
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === "object" || typeof value === "function") &&
    value !== null &&
    typeof (value as { then?: unknown }).then === "function"
  );
}

const NO_FILES: readonly TurnFile[] = Object.freeze([]);

/** The ids of every file the session's turns sent (any branch), and of this turn's. */
function sessionFileIds(journal: SessionJournal, files: readonly FileRef[]): Set<string> {
  const ids = new Set(files.map((file) => file.id));
  for (const record of journal.records) if (record.files) for (const file of record.files) ids.add(file.id);
  return ids;
}

/** What the session's other turns spent, by the one session-cost fold; a `usd` budget is judged on the priced part. */
function sessionSpent(journal: SessionJournal, turnId: string): Spent {
  const { tokens, pricedUsd } = sessionSpend(journal.records.filter((record) => record.id !== turnId));
  return { tokens, usd: pricedUsd };
}
