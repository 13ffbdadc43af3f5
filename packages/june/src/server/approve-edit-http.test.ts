import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DefaultChatTransport, readUIMessageStream, zodSchema, type UIMessage, type UIMessageChunk } from "ai";
import { z } from "zod";
import { fileStore, memoryStore } from "june/chat";
import { createChatHandler } from "june/server";
import { afterAll, describe, expect, it } from "vitest";
import { durableChat, SECRET } from "../chat/__fixtures__/durable-chat.js";
import { askChat } from "../ask/__fixtures__/ask-chat.js";
import { listen, post } from "./__fixtures__/servers.js";
import { sseEvents, type SseEvent } from "./__fixtures__/sse-client.js";

const root = mkdtempSync(join(tmpdir(), "june-approve-edit-http-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const lines = (path: string) => (existsSync(path) ? readFileSync(path, "utf8").split("\n").filter(Boolean) : []);
/** `depth` nested arrays around `"x"`, as JSON text (JSON.stringify would overflow the stack building it). */
const deepJson = (depth: number) => `${"[".repeat(depth)}"x"${"]".repeat(depth)}`;

const denyProd = {
  deploy: (input: { env: string }) => (input.env === "prod" ? { type: "denied" as const, reason: "Production deploys need a change ticket" } : ("user-approval" as const)),
};
const noDev = { tool: [{ name: "no-dev", check: ({ input }: { input?: unknown }) => ((input as { env?: string } | undefined)?.env === "dev" ? "dev is off limits" : undefined) }] };
const inputSchema = zodSchema(z.object({ env: z.string().regex(/^(staging|prod|qa|dev)$/), token: z.string() }));

describe("an edited approval over HTTP passes the model's checks", () => {
  it("POST approve: a policy, a guardrail, the zod schema, a changed hidden field or a 100,000-deep input is a 400 and the request stays; an edit of the shown input runs with the real secret", async () => {
    const dir = join(root, `d${n++}`);
    const log = join(dir, "calls.log");
    const { chat } = durableChat({ store: fileStore(join(dir, "chat")), log, durable: { suspendAfterMs: Infinity }, unstreamed: true, modelInput: { env: "staging", token: SECRET }, toolApproval: denyProd, guardrails: noDev, inputSchema });
    const base = await listen(createChatHandler(chat));
    const session = await chat.createSession({ id: "s1" });
    const response = await post(`${base}/sessions/${session.id}/turns`, { input: "ship the docs" });
    expect(response.status).toBe(200);
    const events: SseEvent[] = [];
    let turnId = "";
    const answers: { status: number; body: any }[] = [];
    for await (const event of sseEvents(response)) {
      events.push(event);
      if (event.event === "turn-start") turnId = event.data.turnId;
      if (event.event !== "approval-request") continue;
      const request = event.data.request;
      expect(request.inputValue).toEqual({ env: "staging", token: "[redacted]" });
      const approve = async (body: unknown) => {
        const answer = await post(`${base}/sessions/${session.id}/turns/${turnId}/approve`, body);
        answers.push({ status: answer.status, body: await answer.json() });
      };
      await approve({ approvalId: request.id, input: { ...request.inputValue, env: "prod" } });
      await approve({ approvalId: request.id, input: { ...request.inputValue, env: "dev" } });
      await approve({ approvalId: request.id, input: { ...request.inputValue, env: "production-eu" } });
      await approve({ approvalId: request.id, input: { ...request.inputValue, token: "[redacted]-2" } });
      await approve(`{"approvalId":${JSON.stringify(request.id)},"input":{"env":"qa","token":"t","deep":${deepJson(100_000)}}}`);
      expect(lines(log)).toEqual(["model plan", "model work-ask"]);
      expect(chat.store).toBeDefined();
      await approve({ approvalId: request.id, input: { ...request.inputValue, env: "qa" } });
    }
    expect(answers.map((a) => a.status)).toEqual([400, 400, 400, 400, 400, 200]);
    expect(answers[0]!.body).toMatchObject({ name: "ApprovalEditRefusedError", error: expect.stringContaining("Production deploys need a change ticket") });
    expect(answers[1]!.body).toMatchObject({ name: "ApprovalEditRefusedError", error: expect.stringContaining('Blocked by guardrail "no-dev": dev is off limits') });
    expect(answers[2]!.body).toMatchObject({ name: "ToolInputInvalidError", error: expect.stringContaining("input.env") });
    expect(answers[3]!.body).toMatchObject({ name: "ToolInputInvalidError", error: expect.stringContaining("input.token holds a part June hid from you") });
    expect(answers[4]!.body.error).toContain('"input" is refused: input is nested deeper than 64 levels');
    expect(events.at(-1)).toMatchObject({ event: "turn-end", data: { status: "completed" } });
    // Once, with the edit and the token the person never saw.
    expect(lines(log)).toEqual(["model plan", "model work-ask", `deploy qa ${SECRET}`, "model work-answer", "model reply"]);
  });

  it("POST answer: a 100,000-deep value is a 400 and the question stays; the turn then completes with a real answer", async () => {
    const { chat } = askChat({ store: memoryStore() });
    const base = await listen(createChatHandler(chat));
    const session = await chat.createSession();
    const response = await post(`${base}/sessions/${session.id}/turns`, { input: "Ship it" });
    const statuses: number[] = [];
    let turnId = "";
    let last: SseEvent | undefined;
    for await (const event of sseEvents(response)) {
      last = event;
      if (event.event === "turn-start") turnId = event.data.turnId;
      if (event.event !== "input-request") continue;
      const id = event.data.request.id;
      const deep = await post(`${base}/sessions/${session.id}/turns/${turnId}/answer`, `{"requestId":${JSON.stringify(id)},"value":${deepJson(100_000)}}`);
      statuses.push(deep.status);
      expect((await deep.json()).error).toContain('"value" is refused: value is nested deeper than 64 levels');
      const wide = await post(`${base}/sessions/${session.id}/turns/${turnId}/answer`, { requestId: id, value: Array.from({ length: 100_001 }, () => 1) });
      statuses.push(wide.status);
      expect((await wide.json()).error).toContain("more than 100,000 values");
      const ok = await post(`${base}/sessions/${session.id}/turns/${turnId}/answer`, { requestId: id, value: "staging" });
      statuses.push(ok.status);
      await ok.text();
    }
    expect(statuses).toEqual([400, 400, 200]);
    expect(last).toMatchObject({ event: "turn-end", data: { status: "completed", text: 'Deploying to "staging".' } });
  });
});

async function assemble(stream: ReadableStream<UIMessageChunk>, message?: UIMessage): Promise<UIMessage> {
  let last: UIMessage | undefined;
  for await (const state of readUIMessageStream({ stream, ...(message && { message }) })) last = state;
  return last!;
}

describe("POST /ui-chat: an edited approval passes the model's checks", () => {
  it("an edit the policy denies, or one 100,000 deep, is a 400 and stays pending; useChat's Edit of the shown input runs with the hidden token", async () => {
    const dir = join(root, `d${n++}`);
    const log = join(dir, "calls.log");
    const { chat } = durableChat({ store: fileStore(join(dir, "chat")), log, durable: { suspendAfterMs: Infinity }, unstreamed: true, modelInput: { env: "staging", token: SECRET }, toolApproval: denyProd });
    const base = await listen(createChatHandler(chat));
    const transport = new DefaultChatTransport<UIMessage>({ api: `${base}/ui-chat` });
    const send = (messages: UIMessage[]) => transport.sendMessages({ chatId: "c1", messages, trigger: "submit-message", messageId: undefined, abortSignal: undefined });
    const user: UIMessage = { id: "u1", role: "user", parts: [{ type: "text", text: "ship the docs" }] };

    const paused = await assemble(await send([user]));
    const part = paused.parts.find((p) => p.type === "dynamic-tool");
    expect(part).toMatchObject({ state: "approval-requested", input: { env: "staging", token: "[redacted]" } });
    const answer = (input: unknown): UIMessage => ({
      ...paused,
      parts: paused.parts.map((p) =>
        p.type === "dynamic-tool" && p.state === "approval-requested" ? { ...p, input, state: "approval-responded", approval: { id: p.approval.id, approved: true } } : p,
      ),
    });
    await expect(send([user, answer({ env: "prod", token: "[redacted]" })])).rejects.toThrow(/Production deploys need a change ticket/);
    const deep = JSON.stringify({ id: "c1", trigger: "submit-message", messages: [user, answer("DEEP")] }).replace('"DEEP"', deepJson(100_000));
    const refused = await post(`${base}/ui-chat`, deep);
    expect(refused.status).toBe(400);
    expect((await refused.json()).error).toContain("nested deeper than 64 levels");
    expect((await chat.openSession("c1")).currentTurn?.requests).toHaveLength(1);
    expect(lines(log)).toEqual(["model plan", "model work-ask"]);

    const edited = answer({ env: "qa", token: "[redacted]" });
    const done = await assemble(await send([user, edited]), edited);
    expect(done.parts.find((p) => p.type === "dynamic-tool")).toMatchObject({ state: "output-available" });
    expect(lines(log)).toEqual(["model plan", "model work-ask", `deploy qa ${SECRET}`, "model work-answer", "model reply"]);
  });
});
