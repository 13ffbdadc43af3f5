import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createChatHandler } from "june/server";
import { chromium, type Browser } from "playwright-core";
import { serveDocsApp, writeDocsApp } from "./docs-app.js";
import { CHROMIUM, CHROMIUM_ARGS, USE_CHAT_LINES } from "./use-chat-app.js";

/** The AI SDK 7 line, where assistant-ui is pinned (tests/browser/use-chat-ai7). */
export const AI7_LINE = USE_CHAT_LINES.find((line) => line.modules !== undefined)!;

export interface AssistantUiApp {
  url: string;
  browser: Browser;
  close(): Promise<void>;
}

/**
 * A page of `files` (docs/server.md's assistant-ui blocks and a `main.tsx`) built on the AI SDK 7 line and served
 * beside `chat`'s handler under `/api/june` (turns kept running when a page goes away), with Chromium to drive it.
 */
export async function startAssistantUiApp(name: string, files: Record<string, string>, chat: Parameters<typeof createChatHandler>[0]): Promise<AssistantUiApp> {
  if (!existsSync(CHROMIUM)) throw new Error(`This test needs Chromium at ${CHROMIUM}: install it with \`apt-get install -y chromium\``);
  const tmp = await mkdtemp(join(tmpdir(), `june-${name}-e2e-`));
  const root = await writeDocsApp(name, files);
  const app = await serveDocsApp(AI7_LINE, root, join(tmp, "ai7"), createChatHandler(chat, { basePath: "/api/june", uiChat: { cancelOnDisconnect: false } }));
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  return {
    url: app.url,
    browser,
    async close() {
      await browser.close();
      await app.close();
      await rm(tmp, { recursive: true, force: true });
    },
  };
}
