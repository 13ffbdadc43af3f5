import { DefaultChatTransport, readUIMessageStream, type UIMessage, type UIMessageChunk } from "ai";
import { createChat, type Chat, type Responder, type TurnEvent } from "june/chat";
import { createChatHandler } from "june/server";
import { describe, expect, it } from "vitest";
import type { ApprovalRequest } from "../../runtime/types.js";
import { createFakeIO } from "../../cli/__fixtures__/fake-io.js";
import { createApprover } from "../../cli/approvals.js";
import { createLineReader } from "../../cli/line-reader.js";
import { Screen } from "../../cli/screen.js";
import { showTurn } from "../../cli/turn-runner.js";
import { listen, post } from "../../server/__fixtures__/servers.js";
import { sseEvents } from "../../server/__fixtures__/sse-client.js";

// Credentials in every shape a turn carries out: split across the reply's deltas, in a tool's input (by key
// and by look), in the error the turn fails with; and one of the user's own shape, which only their
// patterns know (`createChatHandler({ redact })`, `JUNE_REDACT`).
const KEY = "sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz";
const OWN = "ACME-7f3a9c2e11";
const DELTAS = ["Using sk-pr", "oj-AbCdEfGhIj", "KlMnOpQrStUvWxYz and ACME-", "7f3a9c2e11 now. "];
const INPUT = { env: "prod", apiKey: "plain-api-key-value-123", note: `ticket ${OWN} with ${KEY}` };
const FAILURE = `deploy failed: ${KEY} was refused for ${OWN} at /home/ann/deploy/run.ts:12`;
const SECRETS = [KEY, OWN, "plain-api-key-value-123", "AbCdEfGhIjKlMnOpQrStUvWxYz", "/home/ann"];

/** A turn that writes `DELTAS`, asks to run `deploy` with `INPUT`, and once approved fails with `FAILURE`. */
function leakyResponder(): Responder {
  return {
    respond() {
      const request: ApprovalRequest = { id: "approval-1", stepId: "reply", toolName: "deploy", toolCallId: "call-1", input: INPUT };
      let requests: ApprovalRequest[] = [request];
      let decide!: () => void;
      const decided = new Promise<void>((resolve) => (decide = resolve));
      const result = decided.then(() => Promise.reject(new Error(FAILURE)));
      result.catch(() => {});
      async function* events(): AsyncGenerator<TurnEvent> {
        for (const text of DELTAS) yield { type: "text-delta", text };
        yield { type: "approval-request", request };
        await decided;
      }
      const settle = (id: string) => {
        if (id !== request.id || requests.length === 0) return { kind: "not-pending" as const };
        requests = [];
        decide();
        return { kind: "decided" as const };
      };
      return {
        result,
        events: events(),
        get requests() {
          return requests;
        },
        decide: settle,
      };
    },
  };
}

/** What a surface carried out of the process, in the three places a credential was. */
interface Carried {
  text: string;
  toolInput: unknown;
  error: string;
}

function chat(): Chat {
  return createChat({ responder: leakyResponder() });
}

async function throughSse(): Promise<{ carried: Carried; body: string }> {
  const base = await listen(createChatHandler(chat(), { redact: { patterns: [/ACME-[0-9a-f]{10}/] } }));
  const carried: Carried = { text: "", toolInput: undefined, error: "" };
  let body = "";
  let turnId = "";
  expect((await post(`${base}/sessions`, { id: "sse" })).status).toBe(201);
  const response = await post(`${base}/sessions/sse/turns`, { input: "Deploy" });
  expect(response.status).toBe(200);
  for await (const message of sseEvents(response)) {
    body += JSON.stringify(message.data);
    const event = message.data as { type: string; [key: string]: unknown };
    if (event.type === "turn-start") turnId = event.turnId as string;
    if (event.type === "text-delta") carried.text += event.text as string;
    if (event.type === "approval-request") {
      const request = event.request as { id: string; inputValue: unknown };
      carried.toolInput = request.inputValue;
      const approved = await post(`${base}/sessions/sse/turns/${turnId}/approve`, { approvalId: request.id });
      expect(approved.status, await approved.clone().text()).toBe(200);
    }
    if (event.type === "turn-end") {
      const error = event.error as { name: string; message: string };
      carried.error = `${error.name}: ${error.message}`;
    }
  }
  return { carried, body };
}

async function throughUiChat(): Promise<{ carried: Carried; body: string }> {
  const base = await listen(createChatHandler(chat(), { redact: { patterns: [/ACME-[0-9a-f]{10}/] } }));
  const bodies: string[] = [];
  const recording: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    const text = await response.text();
    bodies.push(text);
    return new Response(text, { status: response.status, headers: response.headers });
  };
  const transport = new DefaultChatTransport<UIMessage>({ api: `${base}/ui-chat`, fetch: recording });
  const send = async (messages: UIMessage[]) => {
    const stream = await transport.sendMessages({ chatId: "ui", messages, trigger: "submit-message", messageId: undefined, abortSignal: undefined });
    const chunks: UIMessageChunk[] = [];
    for await (const chunk of stream as unknown as AsyncIterable<UIMessageChunk>) chunks.push(chunk);
    return chunks;
  };
  const user: UIMessage = { id: "u1", role: "user", parts: [{ type: "text", text: "Deploy" }] };
  const first = await send([user]);
  let paused: UIMessage | undefined;
  for await (const state of readUIMessageStream({ stream: streamOf(first) })) paused = state;
  const answered: UIMessage = {
    ...paused!,
    parts: paused!.parts.map((part) =>
      part.type === "dynamic-tool" && part.state === "approval-requested" ? { ...part, state: "approval-responded", approval: { id: part.approval.id, approved: true } } : part,
    ),
  };
  const rest = await send([user, answered]);
  const chunks = [...first, ...rest];
  const carried: Carried = {
    text: chunks.flatMap((chunk) => (chunk.type === "text-delta" ? [chunk.delta] : [])).join(""),
    toolInput: chunks.find((chunk) => chunk.type === "tool-input-available")?.input,
    error: chunks.find((chunk) => chunk.type === "error")?.errorText ?? "",
  };
  return { carried, body: bodies.join("\n") };
}

async function throughJson(): Promise<{ carried: Carried; body: string }> {
  const io = createFakeIO({ env: { JUNE_REDACT: "/ACME-[0-9a-f]{10}/" } });
  const screen = new Screen(io);
  const approver = createApprover({ mode: "yes", io, screen, reader: () => createLineReader(io) });
  const turn = (await chat().createSession()).send("Deploy");
  await showTurn({ io, screen, turn, input: "Deploy", approver, json: true });
  const body = io.stdoutText();
  const carried: Carried = { text: "", toolInput: undefined, error: "" };
  for (const line of body.trimEnd().split("\n")) {
    const event = JSON.parse(line) as { type: string; [key: string]: unknown };
    if (event.type === "text-delta") carried.text += event.text as string;
    if (event.type === "approval-request") carried.toolInput = (event.request as { inputValue: unknown }).inputValue;
    if (event.type === "turn-end") {
      const error = event.error as { name: string; message: string };
      carried.error = `${error.name}: ${error.message}`;
    }
  }
  return { carried, body };
}

function streamOf<T>(items: T[]): ReadableStream<T> {
  return new ReadableStream<T>({
    start(controller) {
      for (const item of items) controller.enqueue(item);
      controller.close();
    },
  });
}

describe("one turn, three surfaces", () => {
  it("SSE, /ui-chat and --json carry the same redacted reply, tool input and error", async () => {
    const sse = await throughSse();
    const ui = await throughUiChat();
    const json = await throughJson();

    expect(sse.carried.text).toBe("Using [redacted] and [redacted] now. ");
    expect(sse.carried.toolInput).toEqual({ env: "prod", apiKey: "[redacted]", note: "ticket [redacted] with [redacted]" });
    expect(sse.carried.error).toMatch(/^Error: deploy failed: \[redacted\] was refused for \[redacted\] at /);
    expect(ui.carried).toEqual(sse.carried);
    expect(json.carried).toEqual(sse.carried);
    for (const [surface, { body }] of Object.entries({ sse, ui, json })) {
      for (const secret of SECRETS) expect(body, `${surface} leaks ${secret}`).not.toContain(secret);
    }
  });
});
