import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseJSONL } from "june/learning";
import { sseEvents, type ServerSentEvent } from "june/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { agentById } from "../agents/agents.js";
import { createCopyAgent, RESPONDER_ID, type CopyAgent } from "./copy-agent.js";
import { modelFromSetting } from "./model-setting.js";

let dataDir: string;
let app: CopyAgent;

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "copy-agent-"));
  app = createCopyAgent({ dataDir });
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

function call(method: string, path: string, body?: unknown): Promise<Response> {
  return app.handler(
    new Request(`http://127.0.0.1${path}`, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );
}

async function newSession(): Promise<string> {
  return ((await (await call("POST", "/api/agents/editor/sessions", {})).json()) as { id: string }).id;
}

/** Sends one turn to an agent and reads its events; `decide` answers an approval request. */
async function turn(
  agent: string,
  session: string,
  input: string,
  decide?: (approvalId: string) => { approve: true } | { approve: false; reason: string },
): Promise<ServerSentEvent[]> {
  const response = await call("POST", `/api/agents/${agent}/sessions/${session}/turns`, { input });
  expect(response.status).toBe(200);
  const events: ServerSentEvent[] = [];
  let turnId = "";
  let sessionId = "";
  for await (const event of sseEvents(response)) {
    events.push(event);
    if (event.event === "turn-start") ({ turnId, sessionId } = event.data);
    if (event.event === "approval-request") {
      const approvalId = event.data.request.id as string;
      const decision = decide?.(approvalId);
      if (!decision) throw new Error(`unexpected approval request in "${input}"`);
      const reply = decision.approve
        ? await call("POST", `/api/agents/${agent}/sessions/${sessionId}/turns/${turnId}/approve`, { approvalId })
        : await call("POST", `/api/agents/${agent}/sessions/${sessionId}/turns/${turnId}/deny`, { approvalId, reason: decision.reason });
      expect(reply.status).toBe(200);
    }
  }
  return events;
}

const end = (events: ServerSentEvent[]) => events.at(-1)!.data;

describe("the Copy Agent", () => {
  it("lists its agents, at least a headline writer, an editor and a translator", async () => {
    const { agents } = (await (await call("GET", "/api/agents")).json()) as { agents: { id: string }[] };
    expect(agents.map((agent) => agent.id)).toEqual(["headline-writer", "editor", "translator", "front"]);
    expect(() => agentById("poet")).toThrow(/No agent "poet": the Copy Agent has "headline-writer", "editor", "translator"/);
    expect((await call("GET", "/api/agents/poet/sessions")).status).toBe(404);
  });

  it("records on every turn which agent wrote the reply, in the journal and in the dataset", async () => {
    const session = await newSession();
    const headlines = await turn("headline-writer", session, "Headlines for our new espresso machine");
    const edited = await turn("editor", session, "Edit: we are really very excited to launch the machine");
    const translated = await turn("translator", session, "Translate that into Spanish");

    expect(end(headlines)).toMatchObject({ status: "completed", metadata: { responder: { kind: "agent", id: RESPONDER_ID, version: "headline-writer" } } });
    expect(end(headlines).text).toContain("Espresso Machine");
    expect(end(edited)).toMatchObject({ status: "completed", metadata: { responder: { version: "editor" } } });
    expect(end(edited).text).toMatch(/^We are excited to launch the machine\.\n\nChanges: cut "really", "very"/);
    expect(end(translated)).toMatchObject({ status: "completed", metadata: { responder: { version: "translator" } } });
    // The translator worked on the editor's reply: every agent sees the whole conversation.
    expect(end(translated).text).toBe("Nosotros estamos emocionados de lanzar el máquina.\n\n(Spanish, offline glossary)");

    // The reply streamed: its deltas add up to the reply, after the trace showed the two steps.
    const deltas = headlines.filter((event) => event.event === "text-delta").map((event) => event.data.text as string);
    expect(deltas.length).toBeGreaterThan(3);
    expect(deltas.join("")).toBe(end(headlines).text);
    const lastRows = headlines.filter((event) => event.event === "run-update").at(-1)!.data.rows as { stepId: string }[];
    expect(lastRows.map((row) => row.stepId)).toEqual(["draft", "reply"]);

    const detail = (await (await call("GET", `/api/agents/translator/sessions/${session}`)).json()) as {
      turns: { metadata: { responder: { version: string } } }[];
    };
    expect(detail.turns.map((record) => record.metadata.responder.version)).toEqual(["headline-writer", "editor", "translator"]);

    const cases = parseJSONL(await (await call("GET", "/api/dataset")).text());
    expect(cases.map((evalCase) => [evalCase.input, evalCase.metadata.responder])).toEqual([
      ["Headlines for our new espresso machine", { kind: "agent", id: RESPONDER_ID, version: "headline-writer" }],
      ["Edit: we are really very excited to launch the machine", { kind: "agent", id: RESPONDER_ID, version: "editor" }],
      ["Translate that into Spanish", { kind: "agent", id: RESPONDER_ID, version: "translator" }],
    ]);
    expect(cases[2]!.metadata.model).toEqual({ provider: "offline", modelId: "scripted-translator" });
  });

  it("publishes only what the user approves, once, and never what they deny", async () => {
    const session = await newSession();
    await turn("headline-writer", session, "Headlines for our launch");
    const denied = await turn("headline-writer", session, "Publish it", () => ({ approve: false, reason: "not yet" }));
    expect(end(denied).text).toBe("Not published: the call was denied (not yet).");
    expect(await app.publications.list()).toEqual([]);

    const approved = await turn("editor", session, "Publish it", () => ({ approve: true }));
    expect(end(approved)).toMatchObject({ status: "completed", metadata: { responder: { version: "editor" } } });
    const published = await app.publications.list();
    expect(published).toHaveLength(1);
    expect(published[0]).toMatchObject({ agent: "editor", slug: expect.stringMatching(/^launch/) });
    expect(end(approved).text).toBe(`Published "${published[0]!.title}" at /published/${published[0]!.slug}.`);
    const { published: listed } = (await (await call("GET", "/api/published")).json()) as { published: unknown[] };
    expect(listed).toEqual(published);
  });

  it("the front desk hands the conversation to the editor, who answers the same message; later turns sent to the team go to the editor, and the journal says so", async () => {
    const session = await newSession();
    const hello = await turn("front", session, "Hi there");
    expect(end(hello)).toMatchObject({ status: "completed", metadata: { responder: { id: RESPONDER_ID }, agent: { id: "front" } } });
    expect(end(hello).text).toMatch(/headline writer, the editor or the translator/);

    // The front desk hands off, and the editor answers the message in the same turn.
    const edited = await turn("front", session, "Edit: we are really very excited to launch the machine");
    expect(end(edited)).toMatchObject({ status: "completed", metadata: { agent: { id: "editor" }, handoff: { from: "front", to: "editor" } } });
    expect(end(edited).text).toMatch(/^We are excited to launch the machine\.\n\nChanges: cut "really", "very"/);
    // The trace: the front desk's step with the handoff tool's row, then the editor's steps.
    const rows = edited.filter((event) => event.event === "run-update").at(-1)!.data.rows as { stepId: string; children: { kind: string; toolName?: string }[] }[];
    expect(rows[0]!.children.some((row) => row.kind === "tool" && row.toolName === "handoff")).toBe(true);
    expect(rows.length).toBeGreaterThan(1);
    // The reply streamed: its deltas are the editor's reply.
    expect(edited.filter((event) => event.event === "text-delta").map((event) => event.data.text).join("")).toBe(end(edited).text);

    // Another app over the same data directory: the session still belongs to the editor.
    app = createCopyAgent({ dataDir });
    const again = await turn("front", session, "Tighten: this is just a really simple test");
    expect(end(again)).toMatchObject({ metadata: { agent: { id: "editor" } } });
  });

  it("says there is nothing to publish before any copy", async () => {
    const events = await turn("translator", await newSession(), "Publish it");
    expect(end(events).text).toBe("There is nothing to publish yet: ask me for some copy first.");
  });
});

describe("COPY_AGENT_MODEL", () => {
  it("is unset by default: every agent runs offline", async () => {
    expect(await modelFromSetting(undefined)).toBeUndefined();
    expect(await modelFromSetting("  ")).toBeUndefined();
  });

  it("names a provider and a model, and says what is wrong otherwise", async () => {
    const model = await modelFromSetting("openai:gpt-5-mini");
    expect(typeof model === "object" && model.modelId).toBe("gpt-5-mini");
    await expect(modelFromSetting("gpt-5-mini")).rejects.toThrow(/COPY_AGENT_MODEL="gpt-5-mini": expected provider:modelId with a provider of openai, anthropic, google/);
    await expect(modelFromSetting("mistral:large")).rejects.toThrow(/expected provider:modelId/);
    await expect(modelFromSetting("openai:")).rejects.toThrow(/expected provider:modelId/);
  });
});
