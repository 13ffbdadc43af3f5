import type { LanguageModel, ModelMessage, OutputInterface, StepResult, ToolSet } from "ai";
import { within } from "../../telemetry/ai-sdk.js";
import type { CallSettings } from "../types.js";
import type { AttemptHooks } from "../../ai-sdk/attempts-v6.js";
import { streamModel as streamWithAiSdk } from "../../ai-sdk/stream-model.js";

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
export interface ModelStream {
  readonly fullStream: ReturnType<typeof streamWithAiSdk>["parts"];
  readonly response: ReturnType<typeof streamWithAiSdk>["result"]["response"];
  readonly text: ReturnType<typeof streamWithAiSdk>["result"]["text"];
}

/**
 * The engine's one model call: one LLM call (June runs its own tool and steer loop between calls, so it
 * controls the messages in between), made through `ai-sdk/`'s `streamModel`, the one place June calls the AI
 * SDK's `streamText` and where everything that differs between AI SDK 6 and 7 is decided.
 */
export function streamModel(request: ModelRequest): ModelStream {
  const { prepare, onStep, onError } = request;
  const { parts, result } = within(request.span, () =>
    streamWithAiSdk({
      model: request.model,
      settings: request.settings,
      instructions: request.system,
      messages: request.messages,
      tools: request.tools,
      output: request.output,
      abortSignal: request.abortSignal,
      oneCall: true,
      attempts: request.attempts,
      onError,
      prepareStep: prepare ? async ({ messages }: { messages: ModelMessage[] }) => ({ messages: await prepare(messages) }) : undefined,
      onStepEnd: onStep as ((step: { response: { messages: ModelMessage[] } }) => void) | undefined,
    }),
  );
  // Getters: the AI SDK makes each promise when it is first read, and one nobody reads must not reject unhandled.
  return {
    fullStream: parts,
    get response() {
      return result.response;
    },
    get text() {
      return result.text;
    },
  };
}
