import * as ai from "ai";

/**
 * The major version of the `ai` package June runs with, read once when June loads: `isStepCount` is AI SDK
 * 7's name for `stepCountIs`, and AI SDK 6 has no export of that name. This is the one place June asks which
 * line it runs on; the rest of `ai-sdk/` branches on it, no other file does.
 */
export const AI_SDK_MAJOR: 6 | 7 = typeof (ai as Record<string, unknown>)["isStepCount"] === "function" ? 7 : 6;
