import { scriptedModel } from "../../testing/scripted-model.js";

/**
 * What the docs test puts in place of `june/sdk/*`: each provider (`openai`, `createOpenAI(...)`, and their
 * `.chat()`, `.responses()`, `.languageModel()`) makes a scripted model that answers every call with a
 * short streamed reply naming itself, so a page's blocks run offline exactly as written.
 */
export function scriptedProvider(provider: string) {
  const model = (modelId: string) =>
    scriptedModel(() => ({ text: ["A scripted ", `reply from ${provider}:${modelId}.`], usage: { inputTokens: 12, outputTokens: 8 } }), {
      provider,
      modelId,
    });
  return Object.assign(model, { chat: model, responses: model, languageModel: model, completion: model });
}

/** A provider module of `june/sdk/*` with its factory and its default instance swapped. */
export function scriptedProviderModule(real: Record<string, unknown>, name: string, factory: string): Record<string, unknown> {
  const provider = scriptedProvider(name);
  return { ...real, ...(name in real && { [name]: provider }), [factory]: () => provider };
}
