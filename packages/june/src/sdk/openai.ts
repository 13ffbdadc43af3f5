export * from "@ai-sdk/openai";
