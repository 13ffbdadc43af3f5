import * as ai from "ai";
import {
  streamText,
  type LanguageModel,
  type ModelMessage,
  type OutputInterface,
  type TextStreamPart,
  type ToolSet,
} from "ai";
import type { CallSettings } from "./call-types.js";
import { observeAttempts, type AttemptHooks } from "./attempts-v6.js";
import { v7TelemetryOptions } from "./telemetry-v7.js";
import { AI_SDK_MAJOR } from "./major.js";

/** One `streamText` call as June makes it, in words that mean the same on AI SDK 6 and 7. */
export interface ModelStreamRequest {
  readonly model: LanguageModel;
  /** Call settings (`temperature`, `maxRetries`, …, and the AI SDK's telemetry settings as June takes them). */
  readonly settings: CallSettings;
  /** The system prompt (AI SDK 6's `system`, 7's `instructions`). */
  readonly instructions: string | undefined;
  readonly messages: ModelMessage[];
  readonly tools?: ToolSet | undefined;
  readonly output?: OutputInterface | undefined;
  readonly abortSignal?: AbortSignal | undefined;
  /** Told of a failure (the stream's `error` part and the result's promises carry it too); default: nothing. */
  readonly onError?: (error: unknown) => void;
  /** One LLM call only: June runs the tool loop itself. Unset, the AI SDK's default applies (one step on both). */
  readonly oneCall?: boolean;
  /** Told of each request the AI SDK makes (a retry is another) and of each that fails. */
  readonly attempts?: AttemptHooks;
  readonly prepareStep?: (options: { messages: ModelMessage[] }) => PromiseLike<{ messages: ModelMessage[] }>;
  /** The step ended (AI SDK 6's `onStepFinish`, 7's `onStepEnd`). */
  readonly onStepEnd?: (step: { response: { messages: ModelMessage[] } }) => void;
}

/** What `streamModel` gives back: the stream of parts, and the AI SDK's own result for what else it holds. */
export interface ModelStream {
  /** Every part of the call (AI SDK 6's `fullStream`, 7's `stream`). */
  readonly parts: ReadableStream<TextStreamPart<ToolSet>> & AsyncIterable<TextStreamPart<ToolSet>>;
  readonly result: ReturnType<typeof streamText>;
}

/**
 * The one place June calls the AI SDK's `streamText` for a model call: the options are named for the `ai`
 * June loaded (AI SDK 6: `system`, `experimental_telemetry`, `stopWhen: stepCountIs(1)`, `onStepFinish`;
 * AI SDK 7: `instructions`, `telemetry` with June's attempt watch beside the registered integrations,
 * `isStepCount(1)`, `onStepEnd`, and `allowSystemInMessages`, since June's own histories may hold them).
 * A failure reaches the caller through the stream's `error` part (no console output).
 */
export function streamModel(request: ModelStreamRequest): ModelStream {
  const { experimental_telemetry: telemetrySettings, ...settings } = request.settings;
  const options: Record<string, unknown> = Object.assign({}, settings, {
    model: request.model,
    messages: request.messages,
    onError: ({ error }: { error: unknown }) => request.onError?.(error),
  });
  if (request.abortSignal !== undefined) options["abortSignal"] = request.abortSignal;
  if (request.tools !== undefined) options["tools"] = request.tools;
  if (request.output !== undefined) options["output"] = request.output;
  if (request.prepareStep) options["prepareStep"] = request.prepareStep;
  if (AI_SDK_MAJOR === 7) {
    if (request.instructions !== undefined) options["instructions"] = request.instructions;
    options["allowSystemInMessages"] = true;
    if (request.oneCall) options["stopWhen"] = (ai as unknown as { isStepCount(n: number): unknown }).isStepCount(1);
    if (request.onStepEnd) options["onStepEnd"] = request.onStepEnd;
    Object.assign(options, v7TelemetryOptions(telemetrySettings, request.attempts));
  } else {
    if (request.instructions !== undefined) options["system"] = request.instructions;
    if (request.oneCall) options["stopWhen"] = ai.stepCountIs(1);
    if (request.onStepEnd) options["onStepFinish"] = request.onStepEnd;
    const telemetry = request.attempts ? observeAttempts(telemetrySettings, request.attempts) : telemetrySettings;
    if (telemetry) options["experimental_telemetry"] = telemetry;
  }
  const result = streamText(options as Parameters<typeof streamText>[0]);
  const parts = (AI_SDK_MAJOR === 7 ? (result as unknown as { stream: ModelStream["parts"] }).stream : result.fullStream) as ModelStream["parts"];
  return { parts, result };
}

/**
 * A step's own response messages. AI SDK 6's `step.response.messages` start with the tool results it made
 * from approval responses before the call (`carried`, already part of the prompt June keeps); AI SDK 7's
 * hold only what the step produced.
 */
export function stepResponse(stepMessages: readonly ModelMessage[], carried: number): readonly ModelMessage[] {
  return AI_SDK_MAJOR === 7 || carried === 0 ? stepMessages : stepMessages.slice(carried);
}
