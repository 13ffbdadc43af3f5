import type { LanguageModel, LanguageModelUsage, ModelMessage } from "ai";
import { streamModel } from "../../../ai-sdk/stream-model.js";
import { CanceledError } from "../../../runtime/errors.js";
import { pickCallSettings } from "../../../runtime/call-settings.js";
import type { CallSettings, ModelInfo, Usage } from "../../../runtime/types.js";
import { TurnEndedError } from "../../errors.js";
import { ReplayBuffer } from "../../internal/replay-buffer.js";
import { within, withAiSdkTelemetry } from "../../../telemetry/ai-sdk.js";
import { ModelCallSpan } from "../../../telemetry/model-call-span.js";
import { resolveTelemetry, type Telemetry } from "../../../telemetry/options.js";
import type { Responder, ResponderEvent, ResponderExecution, ResponderResult, RespondOptions } from "../../types.js";
import { toUsage } from "../../../runtime/usage.js";
import { ModelTurnTrace } from "./model-turn-trace.js";

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
 * context's messages, then the input. Text streams as `text-delta` events; the turn records the model
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

/** Which model answers: the `LanguageModel`'s `provider` and `modelId`; a string id goes through the gateway. */
export function modelInfo(model: LanguageModel): ModelInfo {
  if (typeof model === "string") return { provider: "gateway", modelId: model };
  return { provider: String(model.provider), modelId: String(model.modelId) };
}

/** One turn of a model chat: one model call, and one more per steer. */
class ModelTurn {
  readonly execution: ResponderExecution;
  /** The reply's deltas and the trace's snapshots, let go of as the turn takes them. */
  readonly #queue = new ReplayBuffer<ResponderEvent>({ discardRead: true });
  readonly #trace: ModelTurnTrace;
  /** Aborted by a steer or a cancel: the reply stops waiting for its reader to catch up. */
  #interrupt: AbortController | undefined;
  readonly #signal: AbortSignal;
  #conversation: ModelMessage[];
  #steers: string[] = [];
  #call: AbortController | undefined;
  #done = false;
  /** What the turn's earlier calls wrote, and what the current call wrote: the reply is the two together (one string grown per delta). */
  #earlier = "";
  #segment = "";
  readonly #turnId: string;
  readonly #model: LanguageModel;
  readonly #instructions: string | undefined;
  readonly #settings: CallSettings;
  readonly #info: ModelInfo;
  readonly #telemetry: Telemetry | undefined;

  constructor(model: LanguageModel, instructions: string | undefined, settings: CallSettings, info: ModelInfo, options: RespondOptions) {
    this.#model = model;
    this.#instructions = instructions;
    this.#telemetry = resolveTelemetry(options.telemetry, "modelResponder: RespondOptions.telemetry");
    this.#settings = withAiSdkTelemetry(settings, undefined, this.#telemetry);
    this.#info = info;
    this.#trace = new ModelTurnTrace(info, (tree) => this.#queue.push({ type: "run-update", tree }));
    this.#turnId = options.turnId;
    this.#signal = options.signal;
    // One copy of the context (never appended to in place: it may be the builder's own array). `concat` copies
    // references in bulk, several times faster than a spread for a long session's context.
    const input: ModelMessage = { role: "user", content: options.input };
    this.#conversation = Array.isArray(options.messages) ? options.messages.concat([input]) : [...options.messages, input];
    const result = this.#run();
    this.execution = {
      result,
      events: this.#queue,
      steer: (input: string) => this.#steer(input),
    };
  }

  #steer(input: string): void {
    if (this.#done) throw new TurnEndedError(this.#turnId, "the model's reply is already complete");
    this.#steers.push(input);
    this.#call?.abort();
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

  async #run(): Promise<ResponderResult> {
    // One listener for the turn: a cancel stops the current call and the wait for the reader.
    const onCancel = () => {
      this.#call?.abort();
      this.#interrupt?.abort();
    };
    this.#signal.addEventListener("abort", onCancel, { once: true });
    let usage: Partial<Usage> | undefined;
    let finishReason: string | undefined;
    try {
      for (;;) {
        this.#signal.throwIfAborted();
        const call = new AbortController();
        this.#call = call;
        this.#earlier += this.#segment;
        this.#segment = "";
        let callUsage: LanguageModelUsage | undefined;
        this.#trace.startCall(this.#instructions, this.#conversation);
        const span = this.#telemetry
          ? ModelCallSpan.start(this.#telemetry, undefined, { model: this.#info, settings: this.#settings, system: this.#instructions, messages: this.#conversation })
          : undefined;
        try {
          const { parts } = within(span, () => streamModel({
            settings: this.#settings,
            model: this.#model,
            instructions: this.#instructions,
            messages: this.#conversation,
            abortSignal: call.signal,
            // Each request the AI SDK makes (a retry is another) shows in the trace as it starts and fails.
            attempts: {
              onAttempt: (attempt, at) => this.#trace.attempt(attempt, at),
              onAttemptError: (attempt, error, at) => {
                if (!call.signal.aborted) this.#trace.attemptFailed(attempt, error, at);
              },
            },
          }));
          for await (const part of parts) {
            span?.onPart(part);
            // A steered or canceled call's late text is not part of the reply.
            if (call.signal.aborted) break;
            if (part.type === "text-delta") {
              this.#segment += part.text;
              this.#queue.push({ type: "text-delta", text: part.text });
            } else if (part.type === "finish") {
              finishReason = part.finishReason;
              callUsage = part.totalUsage;
              usage = addUsage(usage, part.totalUsage);
            } else if (part.type === "error") {
              throw part.error;
            }
          }
        } catch (error) {
          if (!call.signal.aborted) {
            span?.fail(error);
            this.#trace.endCall({ kind: "failed", error }, "error");
            // The snapshot that shows the failure reaches the reader before the turn fails.
            await this.#queue.drained();
            throw error;
          }
        } finally {
          span?.end(call.signal.aborted ? (this.#signal.aborted ? "canceled" : "interrupted") : undefined);
          this.#call = undefined;
        }
        if (call.signal.aborted) {
          this.#trace.endCall({ kind: "stopped", text: this.#segment, canceled: this.#signal.aborted }, this.#signal.aborted ? "canceled" : undefined);
        } else {
          const end = { kind: "done" as const, text: this.#segment, usage: toUsage(callUsage), ...(finishReason !== undefined ? { finishReason } : {}) };
          this.#trace.endCall(end, this.#steers.length === 0 ? "done" : undefined);
        }
        if (this.#signal.aborted) {
          // The snapshot that shows the call canceled reaches the reader before the turn ends.
          await this.#queue.drained();
          this.#signal.throwIfAborted();
        }
        if (this.#steers.length === 0) {
          if (call.signal.aborted) throw new CanceledError("The model call was aborted");
          // The reply ends once its reader has seen all of it: until then a steer can still come in.
          this.#interrupt = new AbortController();
          await this.#queue.drained(this.#interrupt.signal);
          this.#signal.throwIfAborted();
          if (this.#steers.length === 0) break;
        }
        // Steered: keep what this call wrote, then the new input, and call the model again.
        const steers = this.#steers;
        this.#steers = [];
        this.#conversation = [
          ...this.#conversation,
          ...(this.#segment.length > 0 ? [{ role: "assistant" as const, content: this.#segment }] : []),
          ...steers.map((content) => ({ role: "user" as const, content })),
        ];
      }
      const metadata: ResponderResult["metadata"] = { model: this.#info };
      if (usage) metadata.usage = usage;
      if (finishReason !== undefined) metadata.finishReason = finishReason;
      return { text: this.#earlier + this.#segment, metadata };
    } finally {
      this.#done = true;
      this.#signal.removeEventListener("abort", onCancel);
      this.#queue.end();
    }
  }
}

function addUsage(total: Partial<Usage> | undefined, usage: LanguageModelUsage | undefined): Partial<Usage> | undefined {
  if (!usage) return total;
  const next: Partial<Usage> = { ...total };
  for (const key of ["inputTokens", "outputTokens", "totalTokens"] as const) {
    const n = usage[key];
    if (typeof n === "number") next[key] = (next[key] ?? 0) + n;
  }
  return next;
}
