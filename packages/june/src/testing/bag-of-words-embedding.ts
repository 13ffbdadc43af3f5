import { createHash } from "node:crypto";
import { MockEmbeddingModelV3 } from "ai/test";

/** What `bagOfWordsEmbedding` takes. */
export interface BagOfWordsEmbeddingOptions {
  /** The vectors' length. Default 256. */
  dimensions?: number;
  /** Words left out (matched lowercase). Default: a short English list (`the`, `a`, `is`, `what`, …). */
  stopWords?: readonly string[];
  /** The most values one `doEmbed` call takes (the AI SDK's `embedMany` splits a bigger batch). Default 64. */
  maxEmbeddingsPerCall?: number;
}

/** A deterministic embedding model: the recording mock, with its calls in `doEmbedCalls`. */
export type BagOfWordsEmbeddingModel = MockEmbeddingModelV3;

const STOP_WORDS = ["a", "an", "and", "are", "as", "at", "be", "do", "does", "for", "i", "in", "is", "it", "me", "my", "of", "on", "or", "the", "to", "what", "which", "who", "you", "your"];

/**
 * An AI SDK embedding model for tests, with no network and no randomness: each text becomes the counts of its
 * words (lowercased, split on anything that is not a letter or a digit, stop words left out), each word hashed
 * to one of `dimensions` slots. Texts that share words are near (cosine), texts that share none are at 0. Every
 * `doEmbed` call is recorded (`doEmbedCalls`), so a test can count the embedding calls a chat made.
 *
 * @example
 * const embeddingModel = bagOfWordsEmbedding();
 * const chat = createChat({ model, store, memory: { recall: { embeddingModel } } });
 */
export function bagOfWordsEmbedding(options: BagOfWordsEmbeddingOptions = {}): BagOfWordsEmbeddingModel {
  const dimensions = options.dimensions ?? 256;
  if (!Number.isInteger(dimensions) || dimensions < 1) throw new TypeError("bagOfWordsEmbedding: `dimensions` must be a whole number, 1 or more");
  const stop = new Set((options.stopWords ?? STOP_WORDS).map((w) => w.toLowerCase()));
  const slot = (word: string) => createHash("sha256").update(word).digest().readUInt32BE(0) % dimensions;
  const embed = (text: string): number[] => {
    const vector = new Array<number>(dimensions).fill(0);
    for (const word of text.toLowerCase().split(/[^\p{L}\p{N}]+/u)) if (word !== "" && !stop.has(word)) vector[slot(word)]! += 1;
    return vector;
  };
  return new MockEmbeddingModelV3({
    provider: "june-testing",
    modelId: "bag-of-words",
    maxEmbeddingsPerCall: options.maxEmbeddingsPerCall ?? 64,
    supportsParallelCalls: true,
    doEmbed: async ({ values }) => ({ embeddings: values.map(embed), usage: { tokens: values.reduce((n, v) => n + v.split(/\s+/).length, 0) }, warnings: [] }),
  });
}
