import type { FinishReason, LanguageModelResponseMetadata, LanguageModelUsage, ModelMessage } from "ai";
import type { CallSettings, ModelInfo } from "../ai-sdk/call-types.js";
import type { SpanAttributes } from "./june-span.js";

/**
 * The OpenTelemetry GenAI semantic conventions June follows on model-call and tool spans (`gen_ai.*`).
 * https://opentelemetry.io/docs/specs/semconv/gen-ai/
 */

/** `gen_ai.provider.name` (and the older `gen_ai.system`) for an AI SDK provider id (`openai.chat` → `openai`). */
export function genAiProvider(provider: string): string {
  const head = provider.split(".")[0]!.toLowerCase();
  return PROVIDERS[head] ?? head;
}

const PROVIDERS: Record<string, string> = {
  google: "gcp.gemini",
  "google-vertex": "gcp.vertex_ai",
  vertex: "gcp.vertex_ai",
  azure: "azure.ai.openai",
  "amazon-bedrock": "aws.bedrock",
  bedrock: "aws.bedrock",
  mistral: "mistral_ai",
  xai: "x_ai",
};

/** The name of a model-call span: `chat {model}`, as the conventions name an inference span. */
export function modelCallSpanName(model: ModelInfo): string {
  return `chat ${model.modelId}`;
}

/** What a model-call span starts with: operation, provider, request model and the request's settings. */
export function requestAttributes(model: ModelInfo, settings: CallSettings, messageCount: number): SpanAttributes {
  const provider = genAiProvider(model.provider);
  return {
    "gen_ai.operation.name": "chat",
    "gen_ai.provider.name": provider,
    "gen_ai.system": provider,
    "gen_ai.request.model": model.modelId,
    "june.model.provider": model.provider,
    "gen_ai.request.temperature": settings.temperature,
    "gen_ai.request.max_tokens": settings.maxOutputTokens,
    "gen_ai.request.top_p": settings.topP,
    "gen_ai.request.top_k": settings.topK,
    "gen_ai.request.presence_penalty": settings.presencePenalty,
    "gen_ai.request.frequency_penalty": settings.frequencyPenalty,
    "gen_ai.request.seed": settings.seed,
    "gen_ai.request.stop_sequences": settings.stopSequences,
    "june.request.messages": messageCount,
  };
}

/** What a model-call span ends with: response id and model, token usage and finish reasons. */
export function responseAttributes(finish: {
  response?: Pick<LanguageModelResponseMetadata, "id" | "timestamp" | "modelId">;
  usage?: LanguageModelUsage;
  finishReason?: FinishReason | string;
}): SpanAttributes {
  return {
    "gen_ai.response.id": finish.response?.id || undefined,
    "gen_ai.response.model": finish.response?.modelId || undefined,
    "gen_ai.usage.input_tokens": finish.usage?.inputTokens,
    "gen_ai.usage.output_tokens": finish.usage?.outputTokens,
    "june.usage.total_tokens": finish.usage?.totalTokens,
    "gen_ai.response.finish_reasons": finish.finishReason !== undefined ? [finish.finishReason] : undefined,
  };
}

/** The conventions' `gen_ai.input.messages` shape: `{ role, parts: [{ type, content | ... }] }`. */
export function inputMessages(messages: readonly ModelMessage[]): unknown[] {
  return messages.map((message) => ({ role: message.role, parts: parts(message.content) }));
}

/** The conventions' `gen_ai.output.messages` for a reply's text. */
export function outputMessages(text: string, finishReason: string | undefined): unknown[] {
  return [{ role: "assistant", parts: [{ type: "text", content: text }], ...(finishReason ? { finish_reason: finishReason } : {}) }];
}

function parts(content: ModelMessage["content"]): unknown[] {
  if (typeof content === "string") return [{ type: "text", content }];
  return content.map((part) => {
    switch (part.type) {
      case "text":
      case "reasoning":
        return { type: part.type, content: part.text };
      case "tool-call":
        return { type: "tool_call", id: part.toolCallId, name: part.toolName, arguments: part.input };
      case "tool-result":
        return { type: "tool_call_response", id: part.toolCallId, response: part.output };
      default:
        return { type: part.type };
    }
  });
}
