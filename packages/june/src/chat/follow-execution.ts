import type { ResponderProvenance } from "../stores/types.js";
import { ReplayBuffer } from "./internal/replay-buffer.js";
import type { DurableSettings } from "./durable/checkpoint-codec.js";
import { SuspendWatch } from "./durable/suspend-watch.js";
import { ResponderContractError, TurnSuspendedError } from "./errors.js";
import type { TurnController } from "./turn.js";
import type { TurnOutcome } from "./turn-outcome.js";
import { turnMetadata } from "./turn-metadata.js";
import type { ResponderExecution, ResponderResult } from "./types.js";

/** How long a canceled turn waits for its responder to wind down before it ends anyway. */
const CANCEL_GRACE_MS = 2_000;

/** What following an execution needs: the turn, its provenance, and its durable settings if any. */
export interface FollowOptions {
  turn: TurnController;
  provenance: ResponderProvenance;
  durable?: DurableSettings | undefined;
}

/**
 * Follows an execution until its result and events are in, either fails, the turn is canceled, or (a
 * durable turn waiting on approvals alone for `suspendAfterMs`) it suspends. Then stops what the responder
 * still has in flight: a failed turn aborts its signal, and an events stream no longer read is closed.
 */
export async function followExecution(options: FollowOptions, execution: ResponderExecution): Promise<TurnOutcome> {
  const { turn } = options;
  turn.attach(execution);
  let iterator: AsyncIterator<unknown> | undefined;
  // June's own responders hand out a replay buffer: followed without an async iterator's promise per event.
  const buffer = execution.events instanceof ReplayBuffer ? execution.events : undefined;
  try {
    if (!buffer) iterator = execution.events?.[Symbol.asyncIterator]();
  } catch (error) {
    ignoreRejection(execution.result);
    return { status: "failed", error };
  }
  const follower = new ExecutionFollower(options, execution, buffer ?? iterator);
  const outcome = await follower.outcome;
  if (outcome.status === "failed" && !turn.abort.signal.aborted) {
    // The turn is over: stop whatever work the responder still has in flight (a run's other steps, a request).
    turn.abort.abort(outcome.error);
  }
  if (outcome.status !== "completed") {
    // Stop a stream we no longer read; do not wait for a responder that ignores it.
    follower.stopFollowing();
    const open = iterator;
    if (open?.return) {
      void Promise.resolve()
        .then(() => open.return!())
        .catch(() => {});
    }
  }
  return outcome;
}

function isTextDelta(event: unknown): boolean {
  return (event as { type?: unknown } | null)?.type === "text-delta";
}

/** A result the turn no longer waits for must not become an unhandled rejection. */
export function ignoreRejection(result: PromiseLike<unknown>): void {
  Promise.resolve(result).then(undefined, () => {});
}

/**
 * Where following stands. Answering: the result and the end of the events are awaited, the turn completes
 * when both are in. Canceling: the turn ends canceled once the responder winds down (its events end or its
 * result settles), so the run's last snapshot, with its steps canceled, still reaches the trace; a responder
 * that ignores its signal gets `CANCEL_GRACE_MS`. Decided: the first outcome won, nothing else counts.
 */
type FollowState =
  | { kind: "answering"; result: ResponderResult | undefined; eventsDone: boolean }
  | { kind: "canceling"; grace: ReturnType<typeof setTimeout> | undefined }
  | { kind: "decided" };

/** The race between an execution's result, its events, the turn's cancel and a durable turn's suspend. */
class ExecutionFollower {
  readonly outcome: Promise<TurnOutcome>;
  readonly #options: FollowOptions;
  readonly #turn: TurnController;
  #state: FollowState;
  #resolve!: (outcome: TurnOutcome) => void;

  #stopFollowing: (() => void) | undefined;

  constructor(options: FollowOptions, execution: ResponderExecution, events: AsyncIterator<unknown> | ReplayBuffer<unknown> | undefined) {
    this.#options = options;
    this.#turn = options.turn;
    this.#state = { kind: "answering", result: undefined, eventsDone: events === undefined };
    this.outcome = new Promise<TurnOutcome>((resolve) => (this.#resolve = resolve));
    // The order matters when several are settled already: a cancel counts before the result.
    this.#watchSuspend();
    void this.#turn.canceled.then(() => this.#onCancel());
    Promise.resolve(execution.result).then(
      (value) => this.#onResult(value),
      (error: unknown) => this.#onFailure(error),
    );
    if (events instanceof ReplayBuffer) {
      this.#stopFollowing = events.follow(
        {
          item: (value) => {
            if (this.#state.kind === "decided") return this.stopFollowing();
            this.#take(value);
          },
          end: () => this.#onEventsEnd(),
          fail: (error) => this.#onFailure(error),
        },
        // A reply's text goes into the turn as it is pushed (one hop, no microtask a delta): taking it calls
        // nothing of the responder's. Anything else (a snapshot that may journal decisions, an approval request a
        // remembered tool decides at once) comes in a microtask, after the push that brought it.
        { now: isTextDelta },
      );
    } else if (events) void this.#readEvents(events);
  }

  /** Stops taking a replay buffer's events (the outcome is decided). */
  stopFollowing(): void {
    this.#stopFollowing?.();
    this.#stopFollowing = undefined;
  }

  /** Takes the responder's events into the turn until they end, fail, or the outcome is decided. */
  async #readEvents(iterator: AsyncIterator<unknown>): Promise<void> {
    try {
      for (;;) {
        const next = await iterator.next();
        if (this.#state.kind === "decided") return;
        if (next.done) break;
        this.#take(next.value);
      }
      this.#onEventsEnd();
    } catch (error) {
      this.#onFailure(error);
    }
  }

  /** One event into the turn. Once canceled, only the run's trace goes on: no more reply text, no new approval requests. */
  #take(value: unknown): void {
    if (this.#state.kind === "canceling" && (value as { type?: unknown } | null)?.type !== "run-update") return;
    this.#turn.push(value);
  }

  #onEventsEnd(): void {
    const state = this.#state;
    switch (state.kind) {
      case "answering":
        state.eventsDone = true;
        return this.#completeIfDone(state);
      case "canceling":
        return this.#endCanceled();
      case "decided":
        return;
      default: {
        const unknown: never = state;
        void unknown;
      }
    }
  }

  #onResult(value: ResponderResult): void {
    const state = this.#state;
    if (state.kind === "canceling") return this.#endCanceled();
    if (state.kind === "decided") return;
    if (typeof value !== "object" || value === null || typeof value.text !== "string") {
      return this.#decide({ status: "failed", error: new ResponderContractError("The responder's result must be an object with a string `text`") });
    }
    state.result = value;
    this.#completeIfDone(state);
  }

  /** The result rejected or the events threw: the turn fails, unless it is being canceled. */
  #onFailure(error: unknown): void {
    if (this.#state.kind === "canceling") this.#endCanceled();
    else this.#decide({ status: "failed", error });
  }

  #onCancel(): void {
    const state = this.#state;
    if (state.kind !== "answering") return;
    if (state.eventsDone) return this.#endCanceled();
    this.#state = { kind: "canceling", grace: setTimeout(() => this.#endCanceled(), CANCEL_GRACE_MS) };
  }

  #completeIfDone(state: Extract<FollowState, { kind: "answering" }>): void {
    if (state.result && state.eventsDone) {
      this.#decide({ status: "completed", result: state.result, metadata: turnMetadata(this.#options.provenance, state.result.metadata) });
    }
  }

  #endCanceled(): void {
    this.#decide({ status: "canceled" });
  }

  /** A durable turn that may suspend gets a watch; when it fires, the controls close and the run stops. */
  #watchSuspend(): void {
    const durable = this.#options.durable;
    if (!durable || !Number.isFinite(durable.suspendAfterMs)) return;
    const turn = this.#turn;
    turn.watchSuspend(
      new SuspendWatch({
        suspendAfterMs: durable.suspendAfterMs,
        requests: () => turn.requests,
        saved: (id) => turn.isSaved(id),
        onSuspend: () => this.#suspend(),
      }),
    );
  }

  #suspend(): void {
    if (this.#state.kind === "decided") return;
    const turn = this.#turn;
    const requests = turn.requests.map((r) => ({ id: r.id, toolName: r.toolName }));
    // The controls close at once; the run stops once its last checkpoint is stored.
    turn.closeControls();
    void turn.closeCheckpoints().then(() => {
      this.#decide({ status: "suspended", requests });
      turn.abort.abort(new TurnSuspendedError({ sessionId: turn.sessionId, turnId: turn.id, requests }));
    });
  }

  /** The first outcome wins: the controls close and the follow ends. */
  #decide(outcome: TurnOutcome): void {
    const state = this.#state;
    if (state.kind === "decided") return;
    if (state.kind === "canceling" && state.grace !== undefined) clearTimeout(state.grace);
    this.#state = { kind: "decided" };
    this.#turn.closeControls();
    this.#resolve(outcome);
  }
}
