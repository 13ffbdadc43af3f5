import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { jsonSchema, tool } from "ai";
import type { Chat } from "june/chat";
import { createChatHandler, type RunningServer } from "june/server";
import { scriptedModel } from "june/testing";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { researchChat } from "./__fixtures__/research-chat.js";
import { docsBlock, serveDocsApp, typeErrors, writeDocsApp } from "./__fixtures__/docs-app.js";
import { CHROMIUM, CHROMIUM_ARGS, USE_CHAT_LINES } from "./__fixtures__/use-chat-app.js";

/**
 * docs/server.md's live-trace recipe (`useChat` with the `data-june-trace` part drawn by june-design-system's
 * `TraceList`), taken from the page as written, type-checked, built with Vite for each AI SDK line, served on
 * one origin with the handler under /api/june, and driven in Debian's headless Chromium against a workflow chat
 * whose tool waits for the test: the page shows the trace while the turn runs, then as it ended.
 */

const WAIT = { timeout: 20_000 };
const RECIPE = docsBlock("server.md", "// app/chat-with-trace.tsx");
const MAIN = `import { createRoot } from "react-dom/client";
import { ChatWithTrace } from "./chat-with-trace";

createRoot(document.getElementById("root")!).render(<ChatWithTrace id={new URLSearchParams(location.search).get("id") ?? "trace"} />);
`;

let tmp: string;
let browser: Browser;
let root: string;
let gate = deferred<void>();

function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((res) => (resolve = res));
  return { promise, resolve };
}

/** A research step whose `lookup` call waits for the test's gate, then the streamed reply. */
function gatedResearchChat(): Chat {
  const model = scriptedModel([
    { toolCalls: [{ toolName: "lookup", input: { q: "June" } }] },
    { text: "June runs agents." },
    { text: ["June ", "runs ", "agent ", "workflows."], delay: 20 },
  ]);
  const lookup = tool({
    description: "Look something up",
    inputSchema: jsonSchema<{ q: string }>({ type: "object", properties: { q: { type: "string" } }, required: ["q"] }),
    execute: async () => {
      await gate.promise;
      return "June is a library for agent workflows.";
    },
  });
  return researchChat({ model, lookup });
}

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`This test needs Chromium at ${CHROMIUM}: install it with \`apt-get install -y chromium\``);
  tmp = await mkdtemp(join(tmpdir(), "june-use-chat-trace-e2e-"));
  root = await writeDocsApp("use-chat-trace", { "chat-with-trace.tsx": RECIPE, "main.tsx": MAIN });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

it("the recipe type-checks as written, against the AI SDK installed here", { timeout: 120_000 }, () => {
  expect(typeErrors(root, ["chat-with-trace.tsx"])).toEqual([]);
});

describe.each(USE_CHAT_LINES)("the live-trace recipe with $name in Chromium", (line) => {
  let app: RunningServer | undefined;
  beforeAll(async () => {
    if (!line.skip) app = await serveDocsApp(line, root, join(tmp, line.modules ? "ai7" : "root"), createChatHandler(gatedResearchChat(), { basePath: "/api/june" }));
  }, 300_000);
  afterAll(async () => {
    await app?.close();
  });
  if (line.skip) it.skip(`skipped: ${line.skip}`, () => {});

  it.skipIf(line.skip !== undefined)("draws the turn's trace while it runs, then as it ended, in one part beside the reply", { timeout: 120_000 }, async () => {
    gate = deferred<void>();
    const page: Page = await browser.newPage();
    const pageErrors: string[] = [];
    page.on("pageerror", (error) => pageErrors.push(error.message));
    try {
      await page.goto(`${app!.url}/?id=trace-${line.modules ? 7 : 6}`);
      await page.getByLabel("Message").fill("What is June?");
      await page.getByRole("button", { name: "Send" }).click();
      const reply = page.locator('article[data-role="assistant"]');
      const trace = reply.locator(".turn-trace");
      // The reply's text parts (the trace's rows have paragraphs of their own).

      // While the tool waits: the step runs, the tool is being called, no reply yet.
      await expect.poll(() => trace.textContent(), WAIT).toContain("Calling lookup");
      expect(await trace.textContent()).toContain("Running research");
      expect(await reply.locator(":scope > p").count()).toBe(0);

      // Let it go: every row ends, the reply streams in beside the trace, still one trace per turn.
      gate.resolve();
      await expect.poll(() => reply.locator(":scope > p").allTextContents().then((texts) => texts.join("")), WAIT).toBe("June runs agent workflows.");
      await expect.poll(() => trace.textContent(), WAIT).toContain("reply finished");
      const ended = (await trace.textContent()) ?? "";
      for (const title of ["research finished", "lookup ran"]) expect(ended).toContain(title);
      expect(ended).not.toMatch(/Running|Calling/);
      expect(await trace.locator(":scope > summary").textContent()).toBe("2 steps · 3 model calls · 1 tool call");
      expect(await trace.count()).toBe(1);
      await expect.poll(() => page.locator("main").getAttribute("data-status"), WAIT).toBe("ready");
      expect(pageErrors).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
