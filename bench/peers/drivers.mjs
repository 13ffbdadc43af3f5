/**
 * The drivers the peer benchmark compares: each runs the same conversation (the bench's 60-delta scripted reply,
 * no network) and keeps it in its own idiomatic way, so the history a turn sends grows as in June's session.
 *
 *   raw          the floor: `streamText` over a plain `{ role, content }` array (bench/lib/fixtures.mjs rawTurn)
 *   aisdk-array  the AI SDK as its docs show a chat: `streamText`, `textStream`, then `(await response).messages`
 *   june-memory  June: createChat + memoryStore, fullContext (bench/lib/fixtures.mjs chatTurn)
 *   june-file    June: createChat + fileStore (fsync on), fullContext
 *   june-agent   June: agentResponder with a one-step workflow over memoryStore
 *   openai-agents  OpenAI Agents: an Agent on a `Model` of our own (getResponse / getStreamedResponse) that passes
 *                on the scripted model's deltas, a MemorySession per conversation, a Runner with tracing off,
 *                `runner.run(agent, input, { stream: true, session })`
 *   mastra       Mastra: an Agent on the AI SDK scripted model itself (a LanguageModelV3: @mastra/core 1.71 takes
 *                specification v2, v3 and v4 models), MockMemory over InMemoryStore, one thread per conversation,
 *                every message of the thread recalled (`lastMessages` unbounded, as June's fullContext)
 *   langgraph    LangGraph: a one-node StateGraph (MessagesAnnotation) calling a small BaseChatModel that passes
 *                on the scripted model's deltas, compiled with a MemorySaver checkpointer, one thread_id per
 *                conversation, streamed with `streamMode: "messages"`
 *   openai-agents-generator, langgraph-fake  the same on each framework's own kind of mock (a plain async
 *                generator; @langchain/core's FakeStreamingChatModel): nothing of the AI SDK loaded (cold start)
 *
 * The rows on the scripted model pay for the same mock stream as the floor: June and the AI SDK read it through
 * `streamText`, Mastra through its own loop, the OpenAI Agents and LangGraph adapters through its `doStream`.
 *
 * Each driver imports only what it uses (the cold-start row imports and runs one, alone, in a fresh process).
 * `load(name)` resolves to `{ open(id) }`; a session's `turn(input)` resolves to the reply's text.
 */

/** The reply every driver streams: 60 deltas of a word and a space (bench/lib/fixtures.mjs replyDeltas). */
export const DELTAS = Array.from({ length: 60 }, (_, i) => `word${i % 100} `);
export const REPLY = DELTAS.join("");

/** Which runtime a driver needs: the peers whose packages require Node 22 or later run under Node 24. */
export const NEEDS_NODE_22 = {
  mastra: "@mastra/core 1.71.0 declares engines node >=22.13.0",
  "openai-agents": "@openai/agents 0.20.0 depends on openai ^7.2.0 (7.59.0 in the lockfile), which declares engines node >=22.0.0",
  "openai-agents-generator": "as openai-agents",
};

/** The input of turn `i`, about 40 characters (bench/lib/fixtures.mjs inputOf). */
export function inputOf(i) {
  return `Question number ${i}: what comes next here?`;
}

function check(text) {
  if (text !== REPLY) throw new Error(`bench/peers: a reply of ${text.length} characters where ${REPLY.length} were scripted`);
  return text;
}

/** The AI SDK scripted model of june/testing, answering every call with DELTAS; `forget()` drops its call log. */
async function aiSdkModel() {
  const { scriptedModel } = await import("june/testing");
  const model = scriptedModel(() => ({ text: DELTAS }), { provider: "bench", modelId: "scripted" });
  model.forget = () => {
    model.doStreamCalls.length = 0;
  };
  return model;
}

const DRIVERS = {
  async raw() {
    const { streamText } = await import("ai");
    const model = await aiSdkModel();
    return {
      open() {
        const history = [];
        return {
          async turn(input) {
            history.push({ role: "user", content: input });
            const result = streamText({ model, messages: history });
            let text = "";
            for await (const part of result.fullStream) {
              if (part.type === "text-delta") text += part.text;
              else if (part.type === "error") throw part.error;
            }
            history.push({ role: "assistant", content: text });
            model.forget();
            return check(text);
          },
        };
      },
    };
  },

  async "aisdk-array"() {
    const { streamText } = await import("ai");
    const model = await aiSdkModel();
    return {
      open() {
        const messages = [];
        return {
          async turn(input) {
            messages.push({ role: "user", content: input });
            const result = streamText({ model, messages });
            let text = "";
            for await (const delta of result.textStream) text += delta;
            messages.push(...(await result.response).messages);
            model.forget();
            return check(text);
          },
        };
      },
    };
  },

  "june-memory": () => june("memory"),
  "june-file": () => june("file"),
  "june-agent": () => june("agent"),

  "openai-agents": () => openaiAgents("scripted"),
  "openai-agents-generator": () => openaiAgents("generator"),

  async mastra() {
    const { Agent } = await import("@mastra/core/agent");
    const { MockMemory } = await import("@mastra/core/memory");
    const { InMemoryStore } = await import("@mastra/core/storage");
    const model = await aiSdkModel();
    const memory = new MockMemory({ storage: new InMemoryStore(), options: { lastMessages: 1_000_000 } });
    const agent = new Agent({ id: "bench", name: "bench", instructions: "", model, memory });
    return {
      open(id) {
        return {
          async turn(input) {
            const output = await agent.stream(input, { memory: { thread: id, resource: "bench" } });
            let text = "";
            for await (const delta of output.textStream) text += delta;
            await output.getFullOutput();
            model.forget();
            return check(text);
          },
        };
      },
    };
  },

  langgraph: () => langgraph("scripted"),
  "langgraph-fake": () => langgraph("fake"),
};

/**
 * The scripted model's own stream (LanguageModelV3 `doStream`, the parts `streamText` reads), as the text deltas a
 * peer's model adapter passes on: the rows that take it pay for the same mock as the floor does. `prompt` is the
 * conversation as the adapter converted it to the AI SDK's prompt shape.
 */
async function* scriptedDeltas(model, prompt) {
  const { stream } = await model.doStream({ prompt });
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (value.type === "text-delta") yield value.delta;
    else if (value.type === "error") throw value.error;
  }
  model.forget();
}

const textPart = (text) => [{ type: "text", text }];

/**
 * OpenAI Agents. "scripted": a `Model` (getResponse / getStreamedResponse) whose deltas come from the AI SDK
 * scripted model's stream, the session's items converted to its prompt; "generator": a `Model` yielding DELTAS
 * from a plain async generator (no mock stream under it: what the framework alone costs).
 */
async function openaiAgents(source) {
  const { Agent, MemorySession, Runner, Usage } = await import("@openai/agents");
  const scripted = source === "scripted" ? await aiSdkModel() : undefined;
  let responses = 0;
  const usage = { inputTokens: 10, outputTokens: 75, totalTokens: 85 };
  const message = (id, text) => ({ type: "message", id, role: "assistant", status: "completed", content: [{ type: "output_text", text }] });
  const promptOf = (input) =>
    (typeof input === "string" ? [{ role: "user", content: input }] : input).map((item) => ({
      role: item.role === "assistant" ? "assistant" : "user",
      content: textPart(typeof item.content === "string" ? item.content : item.content.map((part) => part.text ?? "").join("")),
    }));
  const deltas = (request) => (scripted ? scriptedDeltas(scripted, promptOf(request.input)) : DELTAS);
  /** The `Model` interface: the 60 deltas, then the completed response. */
  const model = {
    async getResponse(request) {
      let text = "";
      for await (const delta of deltas(request)) text += delta;
      return { responseId: `resp-${++responses}`, usage: new Usage(usage), output: [message(`msg-${responses}`, text)] };
    },
    async *getStreamedResponse(request) {
      const id = `resp-${++responses}`;
      yield { type: "response_started" };
      let text = "";
      for await (const delta of deltas(request)) {
        text += delta;
        yield { type: "output_text_delta", delta };
      }
      yield { type: "response_done", response: { id, usage, output: [message(`msg-${responses}`, text)] } };
    },
  };
  const agent = new Agent({ name: "bench", instructions: "", model });
  const runner = new Runner({ tracingDisabled: true });
  return {
    open(id) {
      const session = new MemorySession({ sessionId: id });
      return {
        async turn(input) {
          const result = await runner.run(agent, input, { stream: true, session });
          let text = "";
          for await (const event of result) {
            if (event.type === "raw_model_stream_event" && event.data.type === "output_text_delta") text += event.data.delta;
          }
          await result.completed;
          if (result.error) throw result.error;
          return check(text);
        },
      };
    },
  };
}

/**
 * LangGraph. "scripted": a small BaseChatModel whose `_streamResponseChunks` passes on the AI SDK scripted
 * model's deltas (the messages converted to its prompt); "fake": @langchain/core's FakeStreamingChatModel with
 * DELTAS as its chunks (no mock stream under it).
 */
async function langgraph(source) {
  const { StateGraph, MessagesAnnotation, MemorySaver, START, END } = await import("@langchain/langgraph");
  const { AIMessageChunk } = await import("@langchain/core/messages");
  let model;
  if (source === "fake") {
    const { FakeStreamingChatModel } = await import("@langchain/core/utils/testing");
    model = new FakeStreamingChatModel({ chunks: DELTAS.map((content) => new AIMessageChunk({ content })) });
  } else {
    const { BaseChatModel } = await import("@langchain/core/language_models/chat_models");
    const { ChatGenerationChunk } = await import("@langchain/core/outputs");
    const scripted = await aiSdkModel();
    const promptOf = (messages) =>
      messages.map((m) => ({ role: m.getType() === "ai" ? "assistant" : "user", content: textPart(typeof m.content === "string" ? m.content : String(m.text)) }));
    class ScriptedChatModel extends BaseChatModel {
      _llmType() {
        return "bench-scripted";
      }
      async _generate(messages) {
        let text = "";
        for await (const delta of scriptedDeltas(scripted, promptOf(messages))) text += delta;
        return { generations: [{ text, message: new AIMessageChunk({ content: text }) }] };
      }
      async *_streamResponseChunks(messages, _options, runManager) {
        for await (const delta of scriptedDeltas(scripted, promptOf(messages))) {
          const chunk = new ChatGenerationChunk({ text: delta, message: new AIMessageChunk({ content: delta }) });
          yield chunk;
          await runManager?.handleLLMNewToken(delta, undefined, undefined, undefined, undefined, { chunk });
        }
      }
    }
    model = new ScriptedChatModel({});
  }
  const graph = new StateGraph(MessagesAnnotation)
    .addNode("model", async (state) => ({ messages: [await model.invoke(state.messages)] }))
    .addEdge(START, "model")
    .addEdge("model", END)
    .compile({ checkpointer: new MemorySaver() });
  return {
    open(id) {
      const config = { configurable: { thread_id: id }, streamMode: "messages" };
      return {
        async turn(input) {
          let text = "";
          for await (const [chunk] of await graph.stream({ messages: [{ role: "user", content: input }] }, config)) {
            if (typeof chunk.content === "string") text += chunk.content;
          }
          return check(text);
        },
      };
    },
  };
}

async function june(variant) {
  const { createChat, memoryStore, fileStore, fullContext, agentResponder } = await import("june/chat");
  const model = await aiSdkModel();
  let store;
  let responder;
  if (variant === "file") {
    const { mkdtempSync, rmSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const { join } = await import("node:path");
    const dir = mkdtempSync(join(tmpdir(), "june-bench-peers-"));
    process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
    store = fileStore(dir, { fsync: true });
  } else store = memoryStore();
  if (variant === "agent") {
    const { Agent, Step } = await import("june");
    const { jsx } = await import("june/jsx-runtime");
    // bench/lib/fixtures.mjs benchAgent: <Agent model><Step id="reply" stream prompt={[...messages, input]} /></Agent>
    responder = agentResponder({
      id: "bench-agent",
      version: "1",
      render: ({ messages, input }) =>
        jsx(Agent, { model, children: jsx(Step, { id: "reply", stream: true, prompt: [...messages, { role: "user", content: input }] }) }),
      reply: (result) => String(result.steps.reply),
      stream: { step: "reply" },
    });
  }
  const chat = createChat({ ...(responder ? { responder } : { model }), store, context: fullContext() });
  return {
    open(id) {
      let session;
      return {
        async turn(input) {
          session ??= await chat.createSession({ id });
          const turn = session.send(input);
          let text = "";
          for await (const event of turn) if (event.type === "text-delta") text += event.text;
          const result = await turn.result;
          if (result.text !== text) throw new Error("bench/peers: June's streamed text and result differ");
          model.forget();
          return check(text);
        },
      };
    },
  };
}

export const DRIVER_NAMES = Object.keys(DRIVERS);

/** Loads a driver by name: `{ open(id) }`, a session's `turn(input)` resolving to the reply's text. */
export function load(name) {
  const driver = DRIVERS[name];
  if (!driver) throw new Error(`bench/peers: unknown driver ${name} (drivers: ${DRIVER_NAMES.join(", ")})`);
  return driver();
}
