import {
  stepCountIs,
  streamText,
  type LanguageModel,
  type ModelMessage,
  type OutputInterface,
  type StepResult,
  type StreamTextResult,
  type ToolSet,
} from "ai";
import { within } from "../../telemetry/ai-sdk.js";
import type { CallSettings } from "../types.js";
import { observeAttempts, type AttemptHooks } from "./attempts.js";

/** One request to a model, as every part of June makes it (a model step, a model chat, a summary, a judge). */
export interface ModelRequest {
  readonly model: LanguageModel;
  readonly system: string | undefined;
  readonly messages: ModelMessage[];
  /** `streamText`'s call settings, passed as they are (`experimental_telemetry` already resolved). */
  readonly settings: CallSettings;
  readonly tools?: ToolSet | undefined;
  readonly output?: OutputInterface | undefined;
  readonly abortSignal?: AbortSignal | undefined;
  /** Each request the AI SDK makes for this call (a retry is another), as it starts and as it fails. */
  readonly attempts?: AttemptHooks | undefined;
  /** Active while the call starts, so the AI SDK's own spans nest below it. */
  readonly span?: { with<T>(fn: () => T): T } | undefined;
  /** Right before the request: the messages the AI SDK is about to send; answers the messages to send. */
  readonly prepare?: ((messages: ModelMessage[]) => Promise<ModelMessage[]>) | undefined;
  /** The call's step finished: its response messages (the AI SDK builds them once, here). */
  readonly onStep?: ((step: StepResult<ToolSet>) => void) | undefined;
  /** A stream error (it also reaches the stream as an `error` part). Default: nothing, no console output. */
  readonly onError?: ((error: unknown) => void) | undefined;
}

/** What June reads of a call: its parts as they stream, its response once it ended, its whole text. */
export type ModelStream = Pick<StreamTextResult<ToolSet, never>, "fullStream" | "response" | "text">;

/**
 * The one place June calls the AI SDK's `streamText`: one LLM call (`stepCountIs(1)`; June runs its own tool
 * and steer loop between calls, so it controls the messages in between). Everything that differs between AI SDK
 * majors at the call (option names, telemetry, attempts) is decided here and in `attempts.ts`, nowhere else.
 */
export function streamModel(request: ModelRequest): ModelStream {
  const { prepare, onStep, onError } = request;
  const telemetry = request.attempts ? observeAttempts(request.settings.experimental_telemetry, request.attempts) : request.settings.experimental_telemetry;
  // Object.assign, not `{ ...request.settings, ... }`: V8 builds a literal that spreads an object and then adds
  // keys of its own on a slow path (~7 µs for a call with one setting, e.g. `temperature`, here).
  const options = Object.assign({}, request.settings, {
    experimental_telemetry: telemetry,
    model: request.model,
    system: request.system,
    messages: request.messages,
    tools: request.tools,
    output: request.output,
    stopWhen: stepCountIs(1),
    abortSignal: request.abortSignal,
    onError: onError ? ({ error }: { error: unknown }) => onError(error) : ignore,
    prepareStep: prepare ? async ({ messages }: { messages: ModelMessage[] }) => ({ messages: await prepare(messages) }) : undefined,
    onStepFinish: onStep,
  } satisfies Parameters<typeof streamText>[0]);
  return within(request.span, () => streamText(options)) as unknown as ModelStream;
}

function ignore(): void {}
