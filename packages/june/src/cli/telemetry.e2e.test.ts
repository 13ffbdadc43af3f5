/**
 * End to end: the BUILT `june` exports its spans over OTLP/HTTP when OTEL_EXPORTER_OTLP_ENDPOINT is set, to
 * a local collector stand-in (an HTTP server on 127.0.0.1, port 0) that keeps every body it receives.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createFakeOpenAIServer, type FakeOpenAIServer } from "../testing/fake-openai-server.js";
import { bin, ensureBuilt } from "./__fixtures__/built-bin.js";

const offlineExample = fileURLToPath(new URL("../../../../examples/offline.tsx", import.meta.url));
const firstWorkflow = fileURLToPath(new URL("../../../../examples/first-workflow.tsx", import.meta.url));
const approvalFixture = fileURLToPath(new URL("./__fixtures__/approval-chat.tsx", import.meta.url));
const SECRET = "sk-live-0123456789abcdefghijklmn";

interface OtlpSpan {
  name: string;
  spanId: string;
  parentSpanId?: string;
  traceId: string;
  attributes: { key: string; value: Record<string, unknown> }[];
}
interface Collector {
  url: string;
  requests: { path: string; contentType: string | undefined; body: string }[];
  spans(): OtlpSpan[];
  close(): Promise<void>;
}

async function collector(): Promise<Collector> {
  const requests: Collector["requests"] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      requests.push({ path: req.url ?? "", contentType: req.headers["content-type"], body: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    spans: () =>
      requests.flatMap((request) =>
        (JSON.parse(request.body) as { resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[] }).resourceSpans.flatMap((resource) =>
          resource.scopeSpans.flatMap((scope) => scope.spans),
        ),
      ),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function june(args: string[], env: Record<string, string>, cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [bin, ...args], { cwd, env: { PATH: process.env.PATH ?? "", HOME: cwd, ...env }, stdio: ["pipe", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  child.stdin.end("");
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
}

const attribute = (span: OtlpSpan, key: string): unknown => {
  const value = span.attributes.find((entry) => entry.key === key)?.value;
  return value === undefined ? undefined : Object.values(value)[0];
};

beforeAll(() => ensureBuilt(), 180_000);
const dirs: string[] = [];
let otlp: Collector | undefined;
let fake: FakeOpenAIServer | undefined;
afterEach(async () => {
  await otlp?.close();
  await fake?.close();
  otlp = fake = undefined;
});
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "june-otlp-"));
  dirs.push(dir);
  return dir;
}

describe("june with OTEL_EXPORTER_OTLP_ENDPOINT", { timeout: 90_000 }, () => {
  it("june ask sends the turn's spans in OTLP: june.turn > june.run > june.step > chat/june.tool > june.approval", async () => {
    otlp = await collector();
    const result = await june(["ask", offlineExample, "Deploy the docs to staging", "--yes"], { OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url, OTEL_SERVICE_NAME: "june-e2e" }, tempDir());
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("docs is live on staging");
    expect(otlp.requests.length).toBeGreaterThan(0);
    for (const request of otlp.requests) {
      expect(request.path).toBe("/v1/traces");
      expect(request.contentType).toMatch(/^application\/json/);
    }
    expect(otlp.requests[0]!.body).toContain('"june-e2e"');
    const spans = otlp.spans();
    const named = (name: string) => spans.filter((span) => span.name === name);
    const [turn] = named("june.turn");
    const [run] = named("june.run");
    expect(turn).toBeDefined();
    expect(run?.parentSpanId).toBe(turn!.spanId);
    const steps = named("june.step");
    expect(steps.map((step) => attribute(step, "june.step.id")).sort()).toEqual(["deploy", "reply"]);
    for (const step of steps) expect(step.parentSpanId).toBe(run!.spanId);
    const calls = spans.filter((span) => span.name.startsWith("chat "));
    expect(calls.length).toBeGreaterThanOrEqual(3);
    for (const call of calls) expect(steps.map((step) => step.spanId)).toContain(call.parentSpanId);
    const [toolSpan] = named("june.tool");
    expect(attribute(toolSpan!, "gen_ai.tool.name")).toBe("deploy");
    expect(attribute(toolSpan!, "june.tool.approved")).toBe(true);
    expect(named("june.approval")[0]?.parentSpanId).toBe(toolSpan!.spanId);
    expect(attribute(named("june.approval")[0]!, "june.approval.decision")).toBe("approved");
    expect(new Set(spans.map((span) => span.traceId)).size).toBe(1);
    // Content stays out by default.
    expect(otlp.requests.map((request) => request.body).join("")).not.toContain("Deploy the docs to staging");
  });

  it("a real provider's turn (the fake OpenAI server): gen_ai.* on the model spans, the tool input's secret nowhere", async () => {
    otlp = await collector();
    fake = await createFakeOpenAIServer({
      script: ({ index }) => (index % 2 === 0 ? { toolCalls: [{ toolName: "touch", input: { note: "ran", apiKey: SECRET } }] } : { text: ["All ", "done."] }),
    });
    const cwd = tempDir();
    const result = await june(
      ["ask", approvalFixture, "Touch it", "--yes"],
      { OTEL_EXPORTER_OTLP_ENDPOINT: `${otlp.url}/`, OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: fake.url, JUNE_TEST_MARKER: join(cwd, "marker") },
      cwd,
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("All done.");
    const calls = otlp.spans().filter((span) => span.name === "chat gpt-5-mini");
    expect(calls).toHaveLength(2);
    for (const call of calls) {
      expect(attribute(call, "gen_ai.provider.name")).toBe("openai");
      expect(attribute(call, "gen_ai.request.model")).toBe("gpt-5-mini");
      expect(Number(attribute(call, "gen_ai.usage.input_tokens"))).toBeGreaterThan(0);
    }
    expect(otlp.requests.map((request) => request.body).join("")).not.toContain(SECRET);
  });

  it("june run sends the run's spans: june.run > june.step > chat scripted, under OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as given", async () => {
    otlp = await collector();
    const result = await june(["run", firstWorkflow, "--input", "the bicycle"], { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${otlp.url}/custom/traces` }, tempDir());
    expect(result.code).toBe(0);
    expect(otlp.requests.map((request) => request.path)).toContain("/custom/traces");
    const spans = otlp.spans();
    const [run] = spans.filter((span) => span.name === "june.run");
    expect(run?.parentSpanId ?? "").toBe("");
    const steps = spans.filter((span) => span.name === "june.step");
    expect(steps.map((step) => attribute(step, "june.step.id")).sort()).toEqual(["facts", "summary"]);
    for (const step of steps) expect(step.parentSpanId).toBe(run!.spanId);
    expect(spans.filter((span) => span.name === "chat scripted").map((span) => span.parentSpanId).sort()).toEqual(steps.map((step) => step.spanId).sort());
  });

  it("exports nothing when the variable is not set", async () => {
    otlp = await collector();
    const result = await june(["ask", offlineExample, "Deploy the docs to staging", "--yes"], {}, tempDir());
    expect(result.code).toBe(0);
    expect(otlp.requests).toEqual([]);
  });
});
