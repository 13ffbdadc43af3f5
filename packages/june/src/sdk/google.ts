export * from "@ai-sdk/google";
