/**
 * What every benchmark drives: the scripted model, the raw `streamText` floor, chats over each store, the
 * one-step agent responder, and histories seeded straight through a store's `append`.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { streamText } from "ai";
import { Agent, Step } from "june";
import { agentResponder, createChat, fileStore, fullContext, memoryStore, recentTurns } from "june/chat";
import { jsx } from "june/jsx-runtime";
import { scriptedModel } from "june/testing";

/** The reply every benchmark model gives: `n` text deltas of a word and a space. */
export function replyDeltas(n = 60) {
  return Array.from({ length: n }, (_, i) => `word${i % 100} `);
}

/**
 * A scripted model that answers every call with the same deltas (no delay unless given). The mock records
 * every call's options in `doStreamCalls`; `forget()` drops them so a long benchmark does not hold every
 * prompt it ever sent (call it after each turn, in every variant alike).
 */
export function benchModel({ deltas = replyDeltas(), delay, firstDelay, provider = "bench", modelId = "scripted" } = {}) {
  const text = firstDelay === undefined ? deltas : deltas.map((d, i) => (i === 0 ? { text: d, delay: firstDelay } : d));
  const model = scriptedModel(() => ({ text, ...(delay !== undefined ? { delay } : {}) }), { provider, modelId });
  model.forget = () => {
    model.doStreamCalls.length = 0;
  };
  return model;
}

/**
 * The floor: one raw `streamText` turn over a plain message array (the history grows in place). `callOptions`
 * go to `streamText` too (`bench/tools/turn-layers.mjs` passes the ones June's model responder adds).
 */
export async function rawTurn(model, history, input, { window, callOptions } = {}) {
  history.push({ role: "user", content: input });
  const messages = window === undefined ? history : history.slice(-(window * 2 + 1));
  const result = streamText(callOptions === undefined ? { model, messages } : Object.assign({}, callOptions, { model, messages }));
  let text = "";
  for await (const part of result.fullStream) {
    if (part.type === "text-delta") text += part.text;
    else if (part.type === "error") throw part.error;
  }
  history.push({ role: "assistant", content: text });
  model.forget();
  return text;
}

/** One chat turn as a consumer runs it: send, read every event, await the result. */
export async function chatTurn(session, input, model) {
  const turn = session.send(input);
  let text = "";
  for await (const event of turn) if (event.type === "text-delta") text += event.text;
  const result = await turn.result;
  // Lengths only: comparing the streamed text (a rope of 60 deltas, as `+=` builds it) walks every piece, work the
  // raw turn beside it does not do (~5 µs out of cache). The scripted reply is checked whole elsewhere (platform-turn).
  if (result.text.length !== text.length) throw new Error(`bench: streamed text and result differ (${text.length} vs ${result.text.length} chars)`);
  model?.forget();
  return text;
}

/** The one-step workflow of the issue: `<Agent model><Step id="reply" stream prompt={[...messages, input]} /></Agent>`. */
export function benchAgent(model) {
  return agentResponder({
    id: "bench-agent",
    version: "1",
    render: ({ messages, input }) =>
      jsx(Agent, {
        model,
        children: jsx(Step, { id: "reply", stream: true, prompt: [...messages, { role: "user", content: input }] }),
      }),
    reply: (result) => String(result.steps.reply),
    stream: { step: "reply" },
  });
}

/** A temporary directory, removed by `cleanup()` (and at exit). */
export function tempDir(prefix = "june-bench-") {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export function removeDir(dir) {
  rmSync(dir, { recursive: true, force: true });
}

/** Context builders by name. */
export function contextOf(name) {
  if (name === "fullContext") return fullContext();
  if (name === "recentTurns(20)") return recentTurns(20);
  throw new Error(`bench: unknown context ${name}`);
}

/**
 * The chat of a variant: `memory` (memoryStore), `file` / `file-nosync` (fileStore with fsync on / off),
 * `agent` (agentResponder over memoryStore).
 */
export function variantChat(variant, { model, context = fullContext(), dir }) {
  switch (variant) {
    case "memory":
      return createChat({ model, store: memoryStore(), context });
    case "file":
      return createChat({ model, store: fileStore(dir, { fsync: true }), context });
    case "file-nosync":
      return createChat({ model, store: fileStore(dir, { fsync: false }), context });
    case "agent":
      return createChat({ responder: benchAgent(model), store: memoryStore(), context });
    default:
      throw new Error(`bench: unknown variant ${variant}`);
  }
}

/** The input of turn `i`, about 40 characters like a short question. */
export function inputOf(i) {
  return `Question number ${i}: what comes next here?`;
}

/**
 * Seeds `turns` completed turns into a session through the store's `append` (in batches), as a model chat
 * would have journaled them with `contextName`. Returns the seeded history as plain messages (the raw floor's
 * array).
 */
export async function seedSession(store, sessionId, { turns, contextName = "fullContext", reply = replyDeltas().join(""), batch = 500 }) {
  const entries = await store.read(sessionId);
  let seq = entries.at(-1).seq;
  const history = [];
  const ids = [];
  let pending = [];
  for (let i = 0; i < turns; i++) {
    const turnId = `seed-${i}`;
    const input = inputOf(i);
    const context =
      contextName === "fullContext"
        ? ids.length === 0
          ? { builder: "fullContext", turnIds: [] }
          : { builder: "fullContext", turnIds: [], completedThrough: ids.at(-1) }
        : { builder: "recentTurns", turnIds: ids.slice(-20) };
    pending.push({ type: "turn-start", turnId, input, context });
    pending.push({
      type: "turn-end",
      turnId,
      status: "completed",
      text: reply,
      metadata: {
        responder: { kind: "model" },
        model: { provider: "bench", modelId: "scripted" },
        usage: { inputTokens: 10, outputTokens: 75, totalTokens: 85 },
        finishReason: "stop",
      },
    });
    ids.push(turnId);
    history.push({ role: "user", content: input }, { role: "assistant", content: reply });
    if (pending.length >= batch * 2 || i === turns - 1) {
      await store.append(sessionId, pending, { expectedSeq: seq });
      seq += pending.length;
      pending = [];
    }
  }
  return history;
}
