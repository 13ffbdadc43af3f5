export * from "@ai-sdk/anthropic";
