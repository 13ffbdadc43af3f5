import { type ChildProcess, spawn } from "node:child_process";
import { cpSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { DefaultChatTransport, type UIMessage, type UIMessageChunk } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, packageDir } from "../cli/__fixtures__/built-bin.js";

/**
 * The Next.js App Router recipe of docs/server.md: tests/frameworks/next-app is an app with one catch-all
 * route (`app/api/june/[...path]/route.ts`) over `june/server`, `june/chat` and `june/sdk/openai`, and no
 * next.config. `next build` must compile it as it is (no `serverExternalPackages`), and `next start` must
 * serve a `useChat` turn through it. The app is copied into packages/june/.tmp (inside the workspace, so
 * Next resolves `june` from its node_modules like an installed package: the built dist, through the
 * exports map).
 */
const nextBin = join(packageDir, "../../node_modules/next/dist/bin/next");
const appDir = join(packageDir, ".tmp", `next-app-${process.pid}`);
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1", OPENAI_API_KEY: "" };

function run(args: string[], onOutput?: (text: string) => void): { child: ChildProcess; done: Promise<{ code: number | null; output: string }> } {
  const child = spawn(process.execPath, [nextBin, ...args], { cwd: appDir, env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const take = (chunk: Buffer) => {
    output += chunk.toString();
    onOutput?.(output);
  };
  child.stdout!.on("data", take);
  child.stderr!.on("data", take);
  const done = new Promise<{ code: number | null; output: string }>((resolve) => child.on("close", (code) => resolve({ code, output })));
  return { child, done };
}

let server: ChildProcess | undefined;

beforeAll(() => {
  ensureBuilt();
  rmSync(appDir, { recursive: true, force: true });
  mkdirSync(join(packageDir, ".tmp"), { recursive: true });
  cpSync(join(packageDir, "tests/frameworks/next-app"), appDir, { recursive: true });
});

afterAll(async () => {
  if (server && server.exitCode === null) {
    const closed = new Promise((resolve) => server!.once("close", resolve));
    server.kill("SIGTERM");
    await closed;
  }
  rmSync(appDir, { recursive: true, force: true });
});

describe("a Next.js App Router catch-all route over june/server", () => {
  it("builds with no extra config and serves a useChat turn", { timeout: 480_000 }, async () => {
    const build = await run(["build"]).done;
    expect(build.output).not.toMatch(/Module not found|Failed to compile/);
    expect(build.code, build.output).toBe(0);
    expect(build.output).toContain("/api/june/[...path]");

    let url: string | undefined;
    const ready = new Promise<string>((resolve) => {
      const started = run(["start", "-p", "0", "-H", "127.0.0.1"], (output) => {
        const found = /http:\/\/127\.0\.0\.1:\d+/.exec(output);
        if (found && /Ready/.test(output) && url === undefined) {
          url = found[0];
          resolve(url);
        }
      });
      server = started.child;
    });
    const base = await ready;

    const transport = new DefaultChatTransport<UIMessage>({ api: `${base}/api/june/ui-chat` });
    const stream = await transport.sendMessages({
      chatId: "next-chat",
      messages: [{ id: "u1", role: "user", parts: [{ type: "text", text: "Hi" }] }],
      trigger: "submit-message",
      messageId: undefined,
      abortSignal: undefined,
    });
    const chunks: UIMessageChunk[] = [];
    for await (const chunk of stream as unknown as AsyncIterable<UIMessageChunk>) chunks.push(chunk);
    const text = chunks.flatMap((c) => (c.type === "text-delta" ? [c.delta] : [])).join("");
    expect(text).toBe("Hello from Next.js.");

    const messages = (await (await fetch(`${base}/api/june/sessions/next-chat/ui-messages`)).json()) as UIMessage[];
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    const missing = await fetch(`${base}/api/june/nowhere`);
    expect(missing.status).toBe(404);
  });
});
