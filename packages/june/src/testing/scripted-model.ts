import { ScriptExhaustedError } from "./errors.js";
import type {
  LanguageModelV3CallOptions,
  LanguageModelV3FinishReason,
  LanguageModelV3StreamPart,
  LanguageModelV3Usage,
} from "@ai-sdk/provider";
import { MockLanguageModelV3 } from "ai/test";

/** One piece of streamed text, optionally after a pause. */
export type ScriptDelta = string | { text: string; delay?: number };

/** A tool call the scripted model makes. */
export interface ScriptToolCall {
  toolName: string;
  input: unknown;
  /** Defaults to `call-<n>`. */
  toolCallId?: string;
}

/** What the model does on one call. A bare string is `{ text }`. */
export interface ScriptCall {
  /** What the model reasons before it answers (a reasoning part: one string, or its deltas), as thinking models stream it. */
  reasoning?: string | string[];
  /** The reply: one string, or its deltas (each optionally delayed). */
  text?: string | ScriptDelta[];
  /** Sources the model cites after its text (a link: `url`, `title`), as a web-search tool's citations stream. */
  sources?: { url: string; title?: string; id?: string }[];
  /** Milliseconds before every delta (a delta's own `delay` wins). */
  delay?: number;
  /** Tool calls made after the text. */
  toolCalls?: ScriptToolCall[];
  /** Fails the call: thrown by `doStream` when `errorAt` is `"start"`, else streamed as an `error` part after the text. */
  error?: unknown;
  errorAt?: "start" | "end";
  /** Token counts the call reports; `cacheReadTokens` and `cacheWriteTokens` are part of `inputTokens`. */
  usage?: { inputTokens?: number; outputTokens?: number; cacheReadTokens?: number; cacheWriteTokens?: number };
  /** Defaults to `tool-calls` when there are tool calls, else `stop`. */
  finishReason?: LanguageModelV3FinishReason["unified"];
}

export type ScriptEntry = string | ScriptCall;

/** What the function form of a script receives. */
export interface ScriptCallInfo {
  /** 0 for the first call. */
  index: number;
  options: LanguageModelV3CallOptions;
}

export type Script = ScriptEntry | ScriptEntry[] | ((call: ScriptCallInfo) => ScriptEntry | Promise<ScriptEntry>);

export interface ScriptedModelOptions {
  provider?: string;
  modelId?: string;
}

/** A recording scripted model: an AI SDK `MockLanguageModelV3` with its calls in `doStreamCalls`. */
export type ScriptedModel = MockLanguageModelV3 & {
  /** How many calls the script has answered. */
  readonly callCount: number;
};

/**
 * A scripted language model for tests and offline examples: one script entry per model call
 * (text deltas with optional delays, tool calls, errors, usage), or a function of the call. A call the
 * script does not provide fails with an error that says so.
 *
 * @example
 * const model = scriptedModel(["Hello!", { text: ["Hel", "lo"], delay: 5 }]);
 */
export function scriptedModel(script: Script, options: ScriptedModelOptions = {}): ScriptedModel {
  let index = 0;
  const model = new MockLanguageModelV3({
    provider: options.provider ?? "june-test",
    modelId: options.modelId ?? "scripted",
    doStream: async (callOptions) => {
      const call = index++;
      const entry = await pick(script, { index: call, options: callOptions });
      const step: ScriptCall = typeof entry === "string" ? { text: entry } : entry;
      if (step.error !== undefined && step.errorAt === "start") throw toError(step.error);
      return { stream: streamFor(step, call, callOptions.abortSignal) };
    },
  });
  Object.defineProperty(model, "callCount", { get: () => index });
  return model as ScriptedModel;
}

async function pick(script: Script, info: ScriptCallInfo): Promise<ScriptEntry> {
  if (typeof script === "function") return script(info);
  if (!Array.isArray(script)) {
    if (info.index === 0) return script;
    throw new ScriptExhaustedError({ source: "scriptedModel", call: info.index + 1, entries: 1, unit: "call" });
  }
  const entry = script[info.index];
  if (entry === undefined) {
    throw new ScriptExhaustedError({ source: "scriptedModel", call: info.index + 1, entries: script.length, unit: "call" });
  }
  return entry;
}

// A string in a script is the failure the test wants the model to throw: a plain Error, as a provider's would be.
function toError(error: unknown): unknown {
  return typeof error === "string" ? new Error(error) : error;
}

function usageOf(step: ScriptCall, text: string): LanguageModelV3Usage {
  const input = step.usage?.inputTokens ?? 10;
  const output = step.usage?.outputTokens ?? Math.max(1, Math.ceil(text.length / 4));
  const cacheRead = step.usage?.cacheReadTokens;
  const cacheWrite = step.usage?.cacheWriteTokens;
  return {
    inputTokens: { total: input, noCache: input - (cacheRead ?? 0) - (cacheWrite ?? 0), cacheRead, cacheWrite },
    outputTokens: { total: output, text: output, reasoning: undefined },
  };
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

function streamFor(step: ScriptCall, call: number, signal: AbortSignal | undefined): ReadableStream<LanguageModelV3StreamPart> {
  const deltas: { text: string; delay?: number }[] =
    step.text === undefined
      ? []
      : typeof step.text === "string"
        ? [{ text: step.text }]
        : step.text.map((d) => (typeof d === "string" ? { text: d } : d));
  const fullText = deltas.map((d) => d.text).join("");
  const textId = `text-${call}`;

  async function* parts(): AsyncGenerator<LanguageModelV3StreamPart> {
    yield { type: "stream-start", warnings: [] };
    yield { type: "response-metadata", id: `response-${call}`, modelId: "scripted", timestamp: new Date(0) };
    if (step.reasoning !== undefined) {
      const reasoningId = `reasoning-${call}`;
      yield { type: "reasoning-start", id: reasoningId };
      for (const delta of typeof step.reasoning === "string" ? [step.reasoning] : step.reasoning) yield { type: "reasoning-delta", id: reasoningId, delta };
      yield { type: "reasoning-end", id: reasoningId };
    }
    if (deltas.length > 0) {
      yield { type: "text-start", id: textId };
      for (const delta of deltas) {
        const wait = delta.delay ?? step.delay;
        if (wait) await sleep(wait, signal);
        else if (signal?.aborted) throw signal.reason;
        yield { type: "text-delta", id: textId, delta: delta.text };
      }
      yield { type: "text-end", id: textId };
    }
    let source = 0;
    for (const { url, title, id } of step.sources ?? []) yield { type: "source", sourceType: "url", id: id ?? `source-${call}-${source++}`, url, ...(title !== undefined && { title }) };
    if (step.error !== undefined) {
      yield { type: "error", error: toError(step.error) };
      return;
    }
    let n = 0;
    for (const toolCall of step.toolCalls ?? []) {
      yield {
        type: "tool-call",
        toolCallId: toolCall.toolCallId ?? `call-${call}-${n++}`,
        toolName: toolCall.toolName,
        input: JSON.stringify(toolCall.input ?? {}),
      };
    }
    const unified = step.finishReason ?? ((step.toolCalls?.length ?? 0) > 0 ? "tool-calls" : "stop");
    yield { type: "finish", usage: usageOf(step, fullText), finishReason: { unified, raw: unified } };
  }

  const iterator = parts();
  return new ReadableStream<LanguageModelV3StreamPart>({
    async pull(controller) {
      try {
        const next = await iterator.next();
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      } catch (error) {
        controller.error(error);
      }
    },
    async cancel() {
      await iterator.return(undefined);
    },
  });
}
