export { ScriptExhaustedError } from "./errors.js";
export { scriptedModel } from "./scripted-model.js";
export { bagOfWordsEmbedding } from "./bag-of-words-embedding.js";
export type { BagOfWordsEmbeddingModel, BagOfWordsEmbeddingOptions } from "./bag-of-words-embedding.js";
export type {
  Script,
  ScriptCall,
  ScriptCallInfo,
  ScriptDelta,
  ScriptEntry,
  ScriptToolCall,
  ScriptedModel,
  ScriptedModelOptions,
} from "./scripted-model.js";
export { createFakeOpenAIServer } from "./fake-openai-server.js";
export type {
  FakeOpenAIApi,
  FakeOpenAIEntry,
  FakeOpenAIReply,
  FakeOpenAIRequest,
  FakeOpenAIRequestInfo,
  FakeOpenAIScript,
  FakeOpenAIServer,
  FakeOpenAIServerOptions,
  FakeOpenAIToolCall,
} from "./fake-openai-server.js";
export { collect, findNodes, readSse, sseEvents, textDeltas } from "./streams.js";
export type { ServerSentEvent } from "./streams.js";
export { createFakeAnthropicServer } from "./fake-anthropic-server.js";
export type {
  FakeAnthropicApi,
  FakeAnthropicRequest,
  FakeAnthropicScript,
  FakeAnthropicServer,
  FakeAnthropicServerOptions,
} from "./fake-anthropic-server.js";
export { createFakeGoogleServer } from "./fake-google-server.js";
export type {
  FakeGoogleApi,
  FakeGoogleRequest,
  FakeGoogleScript,
  FakeGoogleServer,
  FakeGoogleServerOptions,
} from "./fake-google-server.js";
export type {
  FakeModelEntry,
  FakeModelReply,
  FakeModelRequest,
  FakeModelRequestInfo,
  FakeModelScript,
  FakeModelToolCall,
} from "./fake-provider-http.js";
export type { FakeModelFile, FakeModelInlineFile, FakeModelReferencedFile } from "./fake-provider-files.js";
