import type { TurnRecord } from "june/chat";
import type { TurnStreamEvent } from "june/stream";
import { EventSourceParserStream } from "eventsource-parser/stream";

/** An agent as `GET /api/agents` lists it. */
export interface AgentSummary {
  id: string;
  name: string;
  description: string;
}

/** A published piece of copy, as `GET /api/published` lists it. */
export interface PublishedCopy {
  slug: string;
  title: string;
  text: string;
  agent: string;
  at: string;
}

/** An HTTP error from the API, with the server's `{ error }` message. */
export class ApiError extends Error {
  override readonly name = "ApiError";
}

async function request(method: string, path: string, body?: unknown): Promise<Response> {
  const response = await fetch(path, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) {
    let message = `${response.status} ${response.statusText}`;
    try {
      const parsed = (await response.json()) as { error?: unknown };
      if (typeof parsed.error === "string") message = parsed.error;
    } catch {
      // Not JSON: keep the status line.
    }
    throw new ApiError(message);
  }
  return response;
}

async function json<T>(method: string, path: string, body?: unknown): Promise<T> {
  return (await (await request(method, path, body)).json()) as T;
}

const agentPath = (agent: string) => `/api/agents/${encodeURIComponent(agent)}`;

export const api = {
  async agents(): Promise<AgentSummary[]> {
    return (await json<{ agents: AgentSummary[] }>("GET", "/api/agents")).agents;
  },
  async published(): Promise<PublishedCopy[]> {
    return (await json<{ published: PublishedCopy[] }>("GET", "/api/published")).published;
  },
  /** Sessions are shared by every agent; any agent's chat API creates and reads them. */
  async createSession(agent: string): Promise<string> {
    return (await json<{ id: string }>("POST", `${agentPath(agent)}/sessions`, {})).id;
  },
  async turns(agent: string, sessionId: string): Promise<TurnRecord[]> {
    return (await json<{ turns: TurnRecord[] }>("GET", `${agentPath(agent)}/sessions/${encodeURIComponent(sessionId)}`)).turns;
  },
  /** Starts a turn answered by `agent`, and reads its events as they come. */
  async *send(agent: string, sessionId: string, input: string): AsyncGenerator<TurnStreamEvent> {
    const response = await request("POST", `${agentPath(agent)}/sessions/${encodeURIComponent(sessionId)}/turns`, { input });
    if (!response.body) throw new ApiError("The server sent no event stream");
    const reader = response.body.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream()).getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        yield JSON.parse(value.data) as TurnStreamEvent;
      }
    } finally {
      await reader.cancel().catch(() => undefined);
    }
  },
  async approve(agent: string, sessionId: string, turnId: string, approvalId: string): Promise<void> {
    await request("POST", `${agentPath(agent)}/sessions/${encodeURIComponent(sessionId)}/turns/${encodeURIComponent(turnId)}/approve`, { approvalId });
  },
  async deny(agent: string, sessionId: string, turnId: string, approvalId: string, reason: string): Promise<void> {
    await request("POST", `${agentPath(agent)}/sessions/${encodeURIComponent(sessionId)}/turns/${encodeURIComponent(turnId)}/deny`, { approvalId, reason });
  },
};
