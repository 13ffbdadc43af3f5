import type { LanguageModel, ModelMessage } from "ai";
import { memoryText } from "../../memory/memory-message.js";
import { pickCallSettings } from "../../../runtime/call-settings.js";
import type { CallHost, CallInput, CallSpan, FinishedCall } from "../../../runtime/model-engine/call-model.js";
import type { CallEnd, CallPatch, NewCallNode } from "../../../runtime/model-engine/call-node.js";
import { steerLoop } from "../../../runtime/model-engine/steer-loop.js";
import { SteerInbox } from "../../../runtime/steer.js";
import type { CallSettings, ModelInfo, Usage } from "../../../runtime/types.js";
import { addUsage, modelInfo } from "../../../runtime/usage.js";
import { addCost, type Cost } from "../../../cost/price.js";
import { addSpent, assertWithinBudget, NOTHING_SPENT, type Spent } from "../../../cost/budget.js";
import { TurnEndedError } from "../../errors.js";
import { userMessage } from "../../files/turn-input.js";
import { ReplayBuffer } from "../../internal/replay-buffer.js";
import { withAiSdkTelemetry } from "../../../telemetry/ai-sdk.js";
import { ModelCallSpan, type ModelCallInfo } from "../../../telemetry/model-call-span.js";
import { resolveTelemetry, type Telemetry } from "../../../telemetry/options.js";
import type { Responder, TurnEvent, ResponderExecution, ResponderResult, RespondOptions } from "../../types.js";
import { ModelTurnTrace } from "./model-turn-trace.js";
import type { ModelAside } from "../../../ai-sdk/model-asides.js";

export { modelInfo };

/** What `modelResponder` takes: the model, its instructions and `streamText`'s call settings. */
export interface ModelResponderOptions extends CallSettings {
  /** An AI SDK model, passed straight to `streamText`. A string id resolves through the AI SDK gateway. */
  model: LanguageModel;
  /** The system prompt: sent with every turn, never stored. */
  instructions?: string;
  /** Recorded on each turn's provenance. */
  id?: string;
  /** Recorded on each turn's provenance: change it when the prompt or the model changes. */
  version?: string;
}


/**
 * Answers turns with an AI SDK model through `streamText`: `instructions` as the system prompt, then the
 * context's messages, then the input. Text streams as `text-delta` events, the model's reasoning and sources
 * as `reasoning-start`/`-delta`/`-end` and `source` events in their place among them; the turn records the model
 * (`provider`, `modelId`), usage and finish reason. Each model call is a `model-call` node of the turn's
 * trace (`run-update` events): its prompt and response as bounded, redacted excerpts, its tokens and
 * timings, and each request the AI SDK retries (`maxRetries`) as it fails. A provider error (after those
 * retries) fails the turn; canceling aborts the request. Steering stops the current call, keeping what it wrote, and calls
 * the model again with that text and the new input, so the reply is everything written in the turn.
 *
 * @example
 * createChat({ responder: modelResponder({ model: openai("gpt-5-mini"), instructions: "Be brief.", temperature: 0.2 }) });
 */
export function modelResponder(options: ModelResponderOptions): Responder {
  if (typeof options !== "object" || options === null) {
    throw new TypeError("modelResponder(options): options must be an object with `model`");
  }
  const { model, instructions } = options;
  if (model === undefined || model === null || (typeof model !== "string" && typeof model !== "object")) {
    throw new TypeError("modelResponder({ model }): model must be an AI SDK LanguageModel or a gateway model id string");
  }
  if (instructions !== undefined && typeof instructions !== "string") {
    throw new TypeError("modelResponder({ instructions }): instructions must be a string");
  }
  const settings = pickCallSettings(options as unknown as Record<string, unknown>);
  const info = modelInfo(model);
  const responder: Responder = {
    kind: "model",
    respond: (respondOptions) => new ModelTurn(model, instructions, settings, info, respondOptions).execution,
  };
  if (options.id !== undefined) responder.id = options.id;
  if (options.version !== undefined) responder.version = options.version;
  return responder;
}

/**
 * One turn of a model chat: the model engine's steer loop (one call, and one more per steer) over a host that
 * hands the reply's deltas and the trace's snapshots to the turn's reader.
 */
class ModelTurn implements CallHost {
  readonly execution: ResponderExecution;
  /** The reply's deltas and the trace's snapshots, let go of as the turn takes them. */
  readonly #queue = new ReplayBuffer<TurnEvent>({ discardRead: true });
  readonly #trace = new ModelTurnTrace((tree) => this.#queue.push({ type: "run-update", tree }));
  /** Steer input the engine takes at its next call (and that interrupts a call still writing). */
  readonly #inbox = new SteerInbox([], () => {});
  /** Aborted by a steer or a cancel: the reply stops waiting for its reader to catch up. */
  #interrupt: AbortController | undefined;
  readonly #signal: AbortSignal;
  #done = false;
  /** What the turn's earlier calls wrote, and what the current call wrote: the reply is the two together (one string grown per delta). */
  #earlier = "";
  #segment = "";
  /** The current call finished: the turn waits for its reader (a cancel then ends it at once). */
  #settling = false;
  readonly #turnId: string;
  readonly #telemetry: Telemetry | undefined;
  /** Every call's input but its history and host. */
  readonly #base: Omit<CallInput, "history" | "host">;
  /** What the turn's calls spent so far, for its budgets (USD at known prices). */
  #spent: Spent = NOTHING_SPENT;
  /** The turn's tokens and cost so far: every call's, finished or not (what a failed or canceled turn records). */
  #usage: Usage | undefined;
  #cost: Cost | undefined;

  constructor(model: LanguageModel, instructions: string | undefined, settings: CallSettings, info: ModelInfo, options: RespondOptions) {
    this.#telemetry = resolveTelemetry(options.telemetry, "modelResponder: RespondOptions.telemetry");
    this.#turnId = options.turnId;
    this.#signal = options.signal;
    this.#base = {
      model,
      modelInfo: info,
      // The chat's memory right after the instructions, in the system prompt (not a system message among the
      // conversation's, which the AI SDK warns about).
      system: withMemory(instructions, memoryText(options.memory)),
      settings: withAiSdkTelemetry(settings, undefined, this.#telemetry),
      tools: undefined,
      output: undefined,
      signal: options.signal,
      inbox: this.#inbox,
      prices: options.prices,
      budget: options.budget && (() => assertWithinBudget(options.budget!, { tokens: this.#spent.tokens, usd: this.#spent.usd }, options.spent)),
    };
    // One copy of the context (never appended to in place: it may be the builder's own array). `concat` copies
    // references in bulk, several times faster than a spread for a long session's context.
    const input: ModelMessage = options.message ?? userMessage(options.input, options.files ?? []);
    const conversation = Array.isArray(options.messages) ? options.messages.concat([input]) : [...options.messages, input];
    const result = this.#run(conversation);
    this.execution = {
      result,
      events: this.#queue,
      steer: (input: string) => this.#steer(input),
      spent: () => this.#metadata(),
    };
  }

  #steer(input: string): void {
    if (this.#done) throw new TurnEndedError(this.#turnId, "the model's reply is already complete");
    // Interrupts the call while it writes; else the engine takes the input at its next call.
    this.#inbox.push(input);
    // The reply so far is what was handed out: text still queued is dropped, so the next call continues
    // from exactly where the steer arrived and the deltas still add up to the result.
    let dropped = 0;
    for (const event of this.#queue.dropUnread()) if (event.type === "text-delta") dropped += event.text.length;
    if (dropped > 0) {
      // From the current call's text first; what is left of it came from the call before, not yet read.
      const fromSegment = Math.min(dropped, this.#segment.length);
      this.#segment = this.#segment.slice(0, this.#segment.length - fromSegment);
      if (dropped > fromSegment) this.#earlier = this.#earlier.slice(0, Math.max(0, this.#earlier.length - (dropped - fromSegment)));
    }
    this.#interrupt?.abort();
  }

  async #run(conversation: ModelMessage[]): Promise<ResponderResult> {
    // A cancel stops the wait for the reader (the engine stops the call itself).
    const onCancel = () => this.#interrupt?.abort();
    this.#signal.addEventListener("abort", onCancel, { once: true });
    let finishReason: string | undefined;
    try {
      await steerLoop(
        (history) => {
          this.#earlier += this.#segment;
          this.#segment = "";
          this.#settling = false;
          return Object.assign({ history, host: this as CallHost }, this.#base);
        },
        conversation,
        async (call) => {
          if (call.finish) finishReason = call.finish.finishReason;
          return this.#settle(call);
        },
      );
      const metadata = this.#metadata();
      if (finishReason !== undefined) metadata.finishReason = finishReason;
      return { text: this.#earlier + this.#segment, metadata };
    } catch (error) {
      // The snapshot that shows the call failed or canceled reaches the reader before the turn ends.
      if (!this.#settling) await this.#queue.drained();
      throw error;
    } finally {
      this.#done = true;
      this.#signal.removeEventListener("abort", onCancel);
      this.#queue.end();
    }
  }

  /** The turn's model, usage and cost so far. An unknown cost is no `cost` at all (never 0). */
  #metadata(): NonNullable<ResponderResult["metadata"]> {
    const metadata: NonNullable<ResponderResult["metadata"]> = { model: this.#base.modelInfo };
    if (this.#usage) metadata.usage = { ...this.#usage };
    if (this.#cost?.usd !== undefined) metadata.cost = this.#cost;
    return metadata;
  }

  /**
   * A call finished: the reply ends once its reader has seen all of it, and until then a steer can still come
   * in. A steer that dropped text the reader had not taken continues from what it took.
   */
  async #settle(call: FinishedCall): Promise<ModelMessage[] | undefined> {
    this.#settling = true;
    if (this.#inbox.size === 0) {
      // A turn that takes the text as it is pushed has it all already: no wait, no controller to end one.
      if (this.#queue.isDrained) this.#interrupt = undefined;
      else {
        this.#interrupt = new AbortController();
        await this.#queue.drained(this.#interrupt.signal);
      }
      this.#signal.throwIfAborted();
    }
    if (this.#inbox.size === 0 || this.#segment === call.text) return undefined;
    const prompt = call.messages.slice(0, call.messages.length - call.response.length);
    return this.#segment.length > 0 ? [...prompt, { role: "assistant", content: this.#segment }] : prompt;
  }

  // The engine's host: the call's node in the turn's trace, its deltas to the reader.

  open(node: NewCallNode): string {
    return this.#trace.open(node);
  }

  update(nodeId: string, patch: CallPatch): void {
    this.#trace.update(nodeId, patch);
  }

  end(nodeId: string | undefined, patch: CallPatch, end: CallEnd["kind"]): void {
    // The turn's last call ends the run in the same snapshot; a steered one leaves it running.
    const turn = end === "failed" ? "error" : end === "canceled" ? "canceled" : end === "done" && this.#inbox.size === 0 ? "done" : undefined;
    this.#trace.end(nodeId, patch, turn);
  }

  usage(usage: Usage): void {
    this.#usage = addUsage(this.#usage, usage);
    this.#spent = addSpent(this.#spent, { tokens: usage.totalTokens, usd: 0 });
  }

  cost(cost: Cost): void {
    this.#cost = addCost(this.#cost, cost);
    this.#spent = addSpent(this.#spent, { tokens: 0, usd: cost.usd ?? 0 });
  }

  text(text: string, delta: string): void {
    this.#segment = text;
    this.#queue.push({ type: "text-delta", text: delta });
  }

  aside(aside: ModelAside): void {
    this.#queue.push(aside);
  }

  span(info: ModelCallInfo): CallSpan | undefined {
    return this.#telemetry ? ModelCallSpan.start(this.#telemetry, undefined, info) : undefined;
  }

  kept(): string {
    return this.#segment;
  }
}

/** The instructions, then the turn's memory (`<memory>…</memory>`), when there is any. */
function withMemory(instructions: string | undefined, memory: string | undefined): string | undefined {
  if (memory === undefined) return instructions;
  return instructions === undefined || instructions === "" ? memory : `${instructions}\n\n${memory}`;
}
