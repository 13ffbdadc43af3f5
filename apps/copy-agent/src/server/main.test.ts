import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createFakeOpenAIServer, sseEvents, type FakeOpenAIServer } from "june/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AGENTS } from "../agents/agents.js";

/**
 * `npm start`'s process with the one setting that swaps the offline models for a real one:
 * COPY_AGENT_MODEL=openai:gpt-5-mini, the real `@ai-sdk/openai` provider talking to a local server that
 * speaks OpenAI's wire format (OPENAI_BASE_URL).
 */
const appDir = fileURLToPath(new URL("../../", import.meta.url));
const tsx = createRequire(import.meta.url).resolve("tsx/cli");

let fake: FakeOpenAIServer;
let child: ChildProcess;
let dataDir: string;
let base: string;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "copy-agent-main-"));
  fake = await createFakeOpenAIServer({
    script: ({ index }) =>
      index % 2 === 0
        ? "1. Espresso, Faster\n2. Your Morning, Sorted\n3. Pull the Perfect Shot"
        : { text: ["1. Espresso, Faster\n", "2. Your Morning, Sorted\n", "3. Pull the Perfect Shot"], delay: 5 },
  });
  child = spawn(process.execPath, [tsx, "src/server/main.ts"], {
    cwd: appDir,
    env: { ...process.env, PORT: "0", COPY_AGENT_DATA: dataDir, COPY_AGENT_MODEL: "openai:gpt-5-mini", OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: "sk-test-copy-agent" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  base = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const found = /Copy Agent on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (found) resolve(found[1]!);
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", (code) => reject(new Error(`the app exited (${code}) before listening:\n${output}`)));
  });
  expect(output).toContain("(model openai:gpt-5-mini)");
});

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  }
  await fake?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe("COPY_AGENT_MODEL=openai:gpt-5-mini", () => {
  it("answers every agent's turns with the real provider, each still recorded as its agent", async () => {
    const session = ((await (await fetch(`${base}/api/agents/editor/sessions`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" })).json()) as { id: string }).id;
    for (const agent of [AGENTS[0]!, AGENTS[2]!]) {
      const response = await fetch(`${base}/api/agents/${agent.id}/sessions/${session}/turns`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ input: "Headlines for our espresso machine" }),
      });
      let end: any;
      for await (const event of sseEvents(response)) if (event.event === "turn-end") end = event.data;
      expect(end).toMatchObject({
        status: "completed",
        text: "1. Espresso, Faster\n2. Your Morning, Sorted\n3. Pull the Perfect Shot",
        metadata: { responder: { kind: "agent", id: "copy-agent", version: agent.id }, model: { provider: "openai.responses", modelId: "gpt-5-mini" } },
      });
    }
    // Two model calls a turn (draft, then the streamed reply), each with the agent's own instructions and the publish tool on the draft.
    expect(fake.requests).toHaveLength(4);
    expect(fake.requests.every((request) => request.path === "/v1/responses" && request.body.model === "gpt-5-mini")).toBe(true);
    expect(JSON.stringify(fake.requests[0]!.body)).toContain(AGENTS[0]!.instructions);
    expect(JSON.stringify(fake.requests[2]!.body)).toContain(AGENTS[2]!.instructions);
    expect(fake.requests[0]!.body.tools?.map((tool: { name: string }) => tool.name)).toEqual(["publish"]);
    expect(fake.requests[1]!.body.tools).toBeUndefined();
    // No credential reaches the app's API.
    const dataset = await (await fetch(`${base}/api/dataset`)).text();
    expect(dataset).not.toContain("sk-test-copy-agent");
    expect(dataset.trim().split("\n").map((line) => JSON.parse(line).metadata.responder.version)).toEqual(["headline-writer", "translator"]);
  });
});
