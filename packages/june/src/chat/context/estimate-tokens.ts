import type { FileRef } from "../../stores/types.js";

/**
 * Estimates a file's tokens in a prompt: an image as 1,600 (about what the largest image a provider takes
 * unscaled costs), anything else (a PDF, text) as one token per four bytes, rounded up.
 */
export function estimateFileTokens(file: FileRef): number {
  return file.mediaType.startsWith("image/") ? 1_600 : Math.ceil(file.size / 4);
}

/** Estimates tokens as one per four characters, rounded up. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}
