// The chat module `june worker` runs in the CLI test: the chat of ./worker-chat.tsx, its schemas and log
// from the environment the test sets.
import { workerChat } from "./worker-chat.js";

const env = (name: string): string => {
  const value = process.env[name];
  if (value === undefined) throw new Error(`worker-chat-module: ${name} is not set`);
  return value;
};

export default workerChat({ storeSchema: env("JUNE_WORKER_STORE_SCHEMA"), queueSchema: env("JUNE_WORKER_QUEUE_SCHEMA"), log: env("JUNE_WORKER_LOG") }).chat;
