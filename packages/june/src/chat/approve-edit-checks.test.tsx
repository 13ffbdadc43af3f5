import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { jsonSchema, zodSchema } from "ai";
import { z } from "zod";
import { afterAll, describe, expect, it } from "vitest";
import { ApprovalEditRefusedError, ToolInputInvalidError } from "june";
import { fileStore, TurnSuspendedError, type Turn } from "june/chat";
import { approvalView } from "./trace/approval-view.js";
import { durableChat, SECRET, type DurableChatOptions } from "./__fixtures__/durable-chat.js";
import { openStore } from "./__fixtures__/durable-stores.js";
import { testSchema } from "../stores/postgres/__fixtures__/postgres-test-db.js";

const root = mkdtempSync(join(tmpdir(), "june-approve-edit-checks-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const lines = (path: string) => (existsSync(path) ? readFileSync(path, "utf8").split("\n").filter(Boolean) : []);

async function firstRequest(turn: Turn) {
  for await (const event of turn) if (event.type === "approval-request") return event.request;
  throw new Error("the turn ended without asking");
}

/** A chat whose model calls `deploy` with `modelInput`, its turn, and its first request. */
async function asked(options: Omit<DurableChatOptions, "store" | "log">) {
  const dir = join(root, `d${n++}`);
  const log = join(dir, "calls.log");
  const store = fileStore(join(dir, "chat"));
  const { chat } = durableChat({ store, log, durable: { suspendAfterMs: Infinity }, unstreamed: true, ...options });
  const session = await chat.createSession({ id: "s1" });
  const turn = session.send("ship the docs");
  const request = await firstRequest(turn);
  return { turn, request, log, store };
}

/** The request stays pending, nothing ran, nothing was journaled as decided. */
async function stillPending(run: Awaited<ReturnType<typeof asked>>) {
  expect(run.turn.requests.map((r) => r.id)).toEqual([run.request.id]);
  expect(run.turn.status).toBe("running");
  expect(lines(run.log)).toEqual(["model plan", "model work-ask"]);
  expect((await run.store.read("s1")).some((entry) => entry.type === "approval")).toBe(false);
}

const denyProd = {
  deploy: (input: { env: string }) => (input.env === "prod" ? { type: "denied" as const, reason: "Production deploys need a change ticket" } : ("user-approval" as const)),
};
const noProd = { tool: [{ name: "no-prod", check: ({ input }: { input?: unknown }) => ((input as { env?: string } | undefined)?.env === "prod" ? "prod is off limits" : undefined) }] };

describe("an edited approval passes the checks the model's own input passes", () => {
  it("a toolApproval that denies the model's prod call denies an edit to prod, with its reason; the request stays pending", async () => {
    const run = await asked({ modelInput: { env: "staging", token: SECRET }, toolApproval: denyProd });
    const refused = await run.turn.approve(run.request.id, { input: { env: "prod", token: SECRET } }).catch((e: unknown) => e);
    expect(ApprovalEditRefusedError.isInstance(refused)).toBe(true);
    expect(refused).toMatchObject({ by: "policy", reason: "Production deploys need a change ticket", approvalId: run.request.id });
    expect((refused as Error).message).toMatch(/refused by its toolApproval policy: Production deploys need a change ticket\. Request ".*" is still pending/);
    await expect(run.turn.control({ type: "approve", approvalId: run.request.id, input: { env: "prod", token: SECRET } })).rejects.toBeInstanceOf(ApprovalEditRefusedError);
    await stillPending(run);
    // An edit the policy takes runs.
    expect(await run.turn.approve(run.request.id, { input: { env: "qa", token: SECRET } })).toBe(true);
    await run.turn.result;
    expect(lines(run.log)).toEqual(["model plan", "model work-ask", `deploy qa ${SECRET}`, "model work-answer", "model reply"]);
  });

  it("a tool guardrail that trips on the model's prod call trips on an edit to prod", async () => {
    const run = await asked({ modelInput: { env: "staging", token: SECRET }, guardrails: noProd });
    const refused = await run.turn.approve(run.request.id, { input: { env: "prod", token: SECRET } }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApprovalEditRefusedError);
    expect(refused).toMatchObject({ by: "guardrail", reason: expect.stringContaining('Blocked by guardrail "no-prod": prod is off limits') });
    await stillPending(run);
    await run.turn.control({ type: "approve", approvalId: run.request.id });
    await run.turn.result;
    expect(lines(run.log)).toEqual(["model plan", "model work-ask", `deploy staging ${SECRET}`, "model work-answer", "model reply"]);
  });

  it("a JSON Schema's pattern, maxLength, minimum, anyOf and minItems refuse an edit", async () => {
    const inputSchema = jsonSchema<{ env: string; token: string }>({
      type: "object",
      properties: {
        env: { type: "string", pattern: "^(staging|prod)$" },
        token: { type: "string", maxLength: 40 },
        replicas: { type: "integer", minimum: 1 },
        region: { anyOf: [{ const: "eu" }, { const: "us" }] },
        hosts: { type: "array", items: { type: "string" }, minItems: 1 },
      },
      required: ["env", "token"],
    });
    const run = await asked({ inputSchema });
    const good = { env: "staging", token: SECRET };
    for (const [edit, says] of [
      [{ ...good, env: "production-eu" }, /input\.env must match pattern/],
      [{ ...good, token: "x".repeat(41) }, /input\.token must NOT have more than 40 characters/],
      [{ ...good, replicas: 0 }, /input\.replicas must be >= 1/],
      [{ ...good, region: "ap" }, /input\.region must match a schema in anyOf/],
      [{ ...good, hosts: [] }, /input\.hosts must NOT have fewer than 1 items/],
    ] as const) {
      await expect(run.turn.approve(run.request.id, { input: edit })).rejects.toThrow(says);
    }
    await stillPending(run);
    expect(await run.turn.approve(run.request.id, { input: { ...good, region: "eu", hosts: ["a"], replicas: 2 } })).toBe(true);
    await run.turn.result;
    expect(lines(run.log)).toEqual(["model plan", "model work-ask", `deploy staging ${SECRET}`, "model work-answer", "model reply"]);
  });

  it("a zod schema (zodSchema) checks its own rules: regex, min and union", async () => {
    const inputSchema = zodSchema(
      z.object({ env: z.string().regex(/^(staging|prod)$/), token: z.string().min(8), mode: z.union([z.literal("fast"), z.literal("safe")]).optional() }),
    );
    const run = await asked({ inputSchema });
    await expect(run.turn.approve(run.request.id, { input: { env: "production-eu", token: SECRET } })).rejects.toThrow(ToolInputInvalidError);
    await expect(run.turn.approve(run.request.id, { input: { env: "staging", token: "short" } })).rejects.toThrow(/input\.token: /);
    await expect(run.turn.approve(run.request.id, { input: { env: "staging", token: SECRET, mode: "slow" } })).rejects.toThrow(/input\.mode: /);
    await stillPending(run);
    expect(await run.turn.approve(run.request.id, { input: { env: "staging", token: SECRET, mode: "safe" } })).toBe(true);
    await run.turn.result;
    expect(lines(run.log)).toEqual(["model plan", "model work-ask", `deploy staging ${SECRET}`, "model work-answer", "model reply"]);
  });

  it("an edit built from the redacted view takes the hidden fields from the model's input, and refuses a hidden field changed", async () => {
    const run = await asked({});
    const shown = approvalView(run.request).inputValue as Record<string, unknown>;
    expect(shown).toEqual({ env: "prod", token: "[redacted]" });
    await expect(run.turn.approve(run.request.id, { input: { ...shown, token: "[redacted]-2" } })).rejects.toThrow(/input\.token holds a part June hid from you/);
    await expect(run.turn.approve(run.request.id, { input: { ...shown, extra: "[redacted]" } })).rejects.toThrow(/input\.extra holds a part June hid/);
    await stillPending(run);
    expect(await run.turn.approve(run.request.id, { input: { ...shown, env: "staging" } })).toBe(true);
    await run.turn.result;
    // The tool ran with the real token, never the placeholder.
    expect(lines(run.log)).toEqual(["model plan", "model work-ask", `deploy staging ${SECRET}`, "model work-answer", "model reply"]);
  });

  it("a 100,000-deep edit is refused at once (a clear error, the request pending, the turn fine)", async () => {
    const run = await asked({});
    let deep: unknown = "bottom";
    for (let i = 0; i < 100_000; i++) deep = { deeper: deep };
    await expect(run.turn.approve(run.request.id, { input: { env: "staging", token: SECRET, deep } })).rejects.toThrow(/input is nested deeper than 64 levels/);
    const wide = { env: "staging", token: "x".repeat(1_000_001) };
    await expect(run.turn.approve(run.request.id, { input: wide })).rejects.toThrow(/more than 1,000,000 characters/);
    await stillPending(run);
    await run.turn.control({ type: "approve", approvalId: run.request.id });
    await run.turn.result;
  });

  it.each(["file", "postgres"])("a resumed durable turn (%s) checks an edit the same way: refused by policy, guardrail or schema, it stays pending; a good one runs", async (kind) => {
    const dir = join(root, `d${n++}`);
    const log = join(dir, "calls.log");
    mkdirSync(dir, { recursive: true });
    const pg = kind === "postgres" ? await testSchema("approve_edit") : undefined;
    const store = pg ? await openStore("postgres", pg.schema) : fileStore(join(dir, "chat"));
    const options = {
      store,
      log,
      durable: { suspendAfterMs: 30 },
      modelInput: { env: "staging", token: SECRET },
      toolApproval: denyProd,
      guardrails: { tool: [{ name: "no-dev", check: ({ input }: { input?: unknown }) => ((input as { env?: string } | undefined)?.env === "dev" ? "dev is off limits" : undefined) }] },
    };
    const one = durableChat(options);
    const turn = (await one.chat.createSession({ id: "s1" })).send("ship the docs");
    const request = await firstRequest(turn);
    await expect(turn.result).rejects.toBeInstanceOf(TurnSuspendedError);

    const two = durableChat(options);
    const resumed = await (await two.chat.openSession("s1")).resume(turn.id);
    expect(resumed.requests.map((r) => r.id)).toEqual([request.id]);
    // A person at an Edit form: the turn does not suspend under the refusals.
    const release = resumed.holdSuspend!();
    await expect(resumed.control({ type: "approve", approvalId: request.id, input: { env: "prod", token: SECRET } })).rejects.toThrow(/Production deploys need a change ticket/);
    await expect(resumed.control({ type: "approve", approvalId: request.id, input: { env: "dev", token: SECRET } })).rejects.toThrow(/dev is off limits/);
    await expect(resumed.control({ type: "approve", approvalId: request.id, input: { env: 7, token: SECRET } })).rejects.toThrow(ToolInputInvalidError);
    expect(resumed.requests.map((r) => r.id)).toEqual([request.id]);
    await expect(resumed.control({ type: "approve", approvalId: request.id, input: { env: "qa", token: "[redacted]" } })).resolves.toBeUndefined();
    release();
    expect((await resumed.result).text).toContain("live on qa");
    expect(lines(log)).toEqual(["model plan", "model work-ask", `deploy qa ${SECRET}`, "model work-answer", "model reply"]);
    await store.close?.();
    await pg?.drop();
  });
});
