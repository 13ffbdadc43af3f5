import { join } from "node:path";
import type { LanguageModel } from "ai";
import { agentResponder, createChat, fileStore, type Chat, type ChatStore, type AgentTeamOptions } from "june/chat";
import { dataset, toJSONL } from "june/learning";
import { createChatHandler, type ChatHandler } from "june/server";
import { AGENTS, FRONT_DESK, type CopyAgentInfo } from "../agents/agents.js";
import { FrontDeskWorkflow, frontDeskModel } from "../agents/front-desk.js";
import { CopyWorkflow } from "../agents/copy-workflow.js";
import { offlineModel } from "../agents/offline-model.js";
import { publicationLog, type PublicationLog } from "../agents/publish.js";

/** The responder id every agent's turns record; the agent itself is the `version`. */
export const RESPONDER_ID = "copy-agent";

export interface CopyAgentOptions {
  /** Where sessions (`chat/`) and publications (`published.jsonl`) live. Default `.copy-agent`. */
  dataDir?: string;
  /** One model for every agent in place of the offline ones (see `modelFromSetting`). */
  model?: LanguageModel;
  /** A store in place of `fileStore(<dataDir>/chat)`, e.g. a database store for several processes. */
  store?: ChatStore;
}

export interface CopyAgent {
  agents: readonly CopyAgentInfo[];
  /** One chat per agent (and the team's, `front`), all over the same store: a session is shared, each turn answered by one agent. */
  chats: ReadonlyMap<string, Chat>;
  publications: PublicationLog;
  /**
   * The app's API, a Fetch handler: `GET /api/agents`, each agent's chat API under `/api/agents/:id`
   * (June's `createChatHandler`), `GET /api/dataset` (every session's completed turns as JSONL eval cases)
   * and `GET /api/published`. Anything else is a 404, left to the static files.
   */
  handler(request: Request): Promise<Response>;
}

/**
 * The Copy Agent: a copywriting chat with several agents to switch between. Each agent is an
 * `agentResponder` over its own workflow, with `id: "copy-agent"` and `version: <agent id>`, so the
 * journal records on every turn which agent wrote the reply. Beside them, `front` is the team: an
 * `agentResponder({ agents })` whose front desk hands the conversation to a specialist; its turns record the
 * agent that answered as `metadata.agent`.
 */
export function createCopyAgent(options: CopyAgentOptions = {}): CopyAgent {
  const dataDir = options.dataDir ?? ".copy-agent";
  const store = options.store ?? fileStore(join(dataDir, "chat"));
  const publications = publicationLog(join(dataDir, "published.jsonl"));

  const chats = new Map<string, Chat>();
  const handlers = new Map<string, ChatHandler>();
  for (const agent of AGENTS) {
    const model = options.model ?? offlineModel(agent);
    const chat = createChat({
      responder: agentResponder({
        id: RESPONDER_ID,
        version: agent.id,
        render: ({ messages, input }) => (
          <CopyWorkflow agent={agent} model={model} messages={messages} input={input} publications={publications} />
        ),
        reply: (result) => String(result.steps.reply),
        stream: { step: "reply" },
      }),
      store,
    });
    chats.set(agent.id, chat);
    handlers.set(agent.id, createChatHandler(chat, { basePath: `/api/agents/${agent.id}` }));
  }
  // The team: the front desk holds a new conversation and hands it to a specialist (June's handoffs); the
  // session remembers who holds it, so later turns sent to `front` go to that specialist.
  const frontModel = options.model ?? frontDeskModel();
  const team: AgentTeamOptions["agents"] = {
    [FRONT_DESK.id]: {
      description: FRONT_DESK.description,
      render: ({ messages, input, handoff }) => <FrontDeskWorkflow model={frontModel} messages={messages} input={input} handoff={handoff} />,
      reply: (result) => String(result.steps.reply),
    },
  };
  for (const agent of AGENTS) {
    const model = options.model ?? offlineModel(agent);
    team[agent.id] = {
      description: agent.description,
      render: ({ messages, input, handoff }) => (
        <CopyWorkflow agent={agent} model={model} messages={messages} input={input} publications={publications} handoff={handoff} />
      ),
      reply: (result) => String(result.steps.reply),
      stream: { step: "reply" },
    };
  }
  const teamChat = createChat({ responder: agentResponder({ id: RESPONDER_ID, start: FRONT_DESK.id, agents: team }), store });
  chats.set(FRONT_DESK.id, teamChat);
  handlers.set(FRONT_DESK.id, createChatHandler(teamChat, { basePath: `/api/agents/${FRONT_DESK.id}` }));
  const listed = [...AGENTS, FRONT_DESK];
  // Sessions are shared, so any agent's chat reads all of them; the dataset takes each turn's provenance from its record.
  const anyChat = chats.get(AGENTS[0]!.id)!;

  return {
    agents: listed,
    chats,
    publications,
    async handler(request) {
      const { pathname } = new URL(request.url);
      const agentRoute = /^\/api\/agents\/([^/]+)(\/.*)?$/.exec(pathname);
      if (agentRoute) {
        const handler = handlers.get(decodeURIComponent(agentRoute[1]!));
        if (!handler) return json(404, { error: `No agent "${agentRoute[1]}"; there are ${listed.map((agent) => agent.id).join(", ")}` });
        return handler(request);
      }
      if (request.method !== "GET") return json(405, { error: `${request.method} ${pathname} is not allowed` });
      switch (pathname) {
        case "/api/agents":
          return json(200, { agents: listed.map(({ id, name, description }) => ({ id, name, description })) });
        case "/api/dataset":
          return new Response(await toJSONL(dataset(anyChat)), {
            headers: {
              "content-type": "application/jsonl; charset=utf-8",
              "content-disposition": 'attachment; filename="copy-agent-dataset.jsonl"',
            },
          });
        case "/api/published":
          return json(200, { published: await publications.list() });
        default:
          return json(404, { error: `No route ${pathname}` });
      }
    },
  };
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json; charset=utf-8" } });
}
