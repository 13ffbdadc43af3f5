export * from "@ai-sdk/openai-compatible";
