/**
 * A language model (the AI SDK's LanguageModelV3 shape, written out: no import, so a script that uses it loads
 * only what it measures) that streams 60 words in one step. `ai-sdk-turn.mjs` and `june-model-turn.mjs` share it.
 */
const WORDS = Array.from({ length: 60 }, (_, i) => `word${i} `);

export function wordsModel() {
  return {
    specificationVersion: "v3",
    provider: "bench",
    modelId: "words",
    supportedUrls: {},
    async doGenerate() {
      throw new Error("words model: streams only");
    },
    async doStream() {
      const parts = [
        { type: "stream-start", warnings: [] },
        { type: "text-start", id: "t" },
        ...WORDS.map((delta) => ({ type: "text-delta", id: "t", delta })),
        { type: "text-end", id: "t" },
        {
          type: "finish",
          finishReason: { unified: "stop", raw: "stop" },
          usage: { inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 60, text: 60, reasoning: undefined } },
        },
      ];
      return {
        stream: new ReadableStream({
          start(controller) {
            for (const part of parts) controller.enqueue(part);
            controller.close();
          },
        }),
      };
    },
  };
}
