import { useCallback, useEffect, useRef, useState, type FormEvent } from "react";
import { describeTrace, summarizeTrace, TraceList, type ChatTraceRow, type TraceActions } from "june-design-system";
import { api, type AgentSummary, type PublishedCopy } from "./api";

/** A turn as the page shows it: the journaled record's fields, or the live turn's as its events arrive. */
interface TurnView {
  key: string;
  turnId?: string;
  input: string;
  text: string;
  status: "running" | "completed" | "failed" | "canceled" | "suspended" | "interrupted" | "blocked";
  /** The agent that answered: the turn's recorded `agent` (a team turn) or responder `version`, once the turn completed. */
  writtenBy?: string;
  /** The agent this page sent the turn to (its approvals go to that agent's API). */
  sentTo: string;
  rows: ChatTraceRow[];
  error?: string;
}

function sessionFromHash(): string | undefined {
  return new URLSearchParams(window.location.hash.slice(1)).get("session") ?? undefined;
}

export function App() {
  const [agents, setAgents] = useState<AgentSummary[]>([]);
  const [active, setActive] = useState<string>();
  const [sessionId, setSessionId] = useState<string | undefined>(sessionFromHash);
  const [turns, setTurns] = useState<TurnView[]>([]);
  const [published, setPublished] = useState<PublishedCopy[]>([]);
  const [input, setInput] = useState("");
  const [error, setError] = useState<string>();
  const running = turns.some((turn) => turn.status === "running");
  const transcript = useRef<HTMLDivElement>(null);

  useEffect(() => {
    api.agents().then((list) => {
      setAgents(list);
      setActive((current) => current ?? list[0]?.id);
    }, (caught: unknown) => setError(String(caught)));
    api.published().then(setPublished, () => undefined);
  }, []);

  // A reload (or a shared link) reopens the session: its turns, each with the agent that wrote it.
  const reader = agents[0]?.id;
  useEffect(() => {
    if (!sessionId || !reader || turns.length > 0) return;
    api.turns(reader, sessionId).then(
      (records) =>
        setTurns(
          records.map((record) => ({
            key: record.id,
            turnId: record.id,
            input: record.input,
            text: record.text ?? "",
            status: record.status,
            // A team turn (sent to the front desk) names its agent; a switched-to agent's is its responder's version.
            writtenBy: record.metadata?.agent?.id ?? record.metadata?.responder.version,
            sentTo: record.metadata?.agent ? "front" : (record.metadata?.responder.version ?? reader),
            rows: [],
            ...(record.error && { error: record.error.message }),
          })),
        ),
      (caught: unknown) => setError(String(caught)),
    );
    // Only when the session opens: later turns arrive through their own streams (`turns` is then non-empty).
  }, [sessionId, reader]);

  useEffect(() => {
    transcript.current?.scrollTo({ top: transcript.current.scrollHeight });
  }, [turns]);

  const update = useCallback((key: string, change: (turn: TurnView) => TurnView) => {
    setTurns((all) => all.map((turn) => (turn.key === key ? change(turn) : turn)));
  }, []);

  async function send(event: FormEvent) {
    event.preventDefault();
    const text = input.trim();
    if (!text || !active || running) return;
    setError(undefined);
    setInput("");
    const agent = active;
    const key = `live-${Date.now()}`;
    setTurns((all) => [...all, { key, input: text, text: "", status: "running", sentTo: agent, rows: [] }]);
    try {
      let session = sessionId;
      if (!session) {
        session = await api.createSession(agent);
        setSessionId(session);
        window.location.hash = `session=${session}`;
      }
      for await (const streamed of api.send(agent, session, text)) {
        switch (streamed.type) {
          case "turn-start":
            update(key, (turn) => ({ ...turn, turnId: streamed.turnId }));
            break;
          case "text-delta":
            update(key, (turn) => ({ ...turn, text: turn.text + streamed.text }));
            break;
          case "run-update":
            update(key, (turn) => ({ ...turn, rows: streamed.rows }));
            break;
          case "approval-request":
          case "input-request":
          case "policy-decision":
            // The next run-update carries the approval row (a question's, a policy's); nothing else to do.
            break;
          case "reasoning-start":
          case "reasoning-delta":
          case "reasoning-end":
          case "source":
            // The Copy Agent shows neither the model's reasoning nor its sources.
            break;
          case "turn-end":
            update(key, (turn) => ({
              ...turn,
              status: streamed.status,
              text: streamed.text ?? turn.text,
              writtenBy: streamed.metadata?.agent?.id ?? streamed.metadata?.responder.version,
              ...(streamed.error && { error: `${streamed.error.name}: ${streamed.error.message}` }),
            }));
            break;
          default: {
            const unknown: never = streamed;
            void unknown;
          }
        }
      }
    } catch (caught) {
      update(key, (turn) => ({ ...turn, status: "failed", error: caught instanceof Error ? caught.message : String(caught) }));
    } finally {
      api.published().then(setPublished, () => undefined);
    }
  }

  function newChat() {
    setSessionId(undefined);
    setTurns([]);
    window.location.hash = "";
  }

  const activeAgent = agents.find((agent) => agent.id === active);
  const nameOf = (id: string | undefined) => agents.find((agent) => agent.id === id)?.name ?? id ?? "unknown";

  return (
    <div className="app">
      <header className="bar">
        <h1 className="bar__title">Copy Agent</h1>
        <div className="switcher" role="group" aria-label="Agent">
          {agents.map((agent) => (
            <button
              key={agent.id}
              type="button"
              className="switcher__option"
              aria-pressed={agent.id === active}
              data-agent={agent.id}
              onClick={() => setActive(agent.id)}
              title={agent.description}
            >
              {agent.name}
            </button>
          ))}
        </div>
        <div className="bar__actions">
          <a className="link" href="/api/dataset" download>
            Dataset
          </a>
          <button type="button" className="button" onClick={newChat} disabled={running}>
            New chat
          </button>
        </div>
      </header>

      <div className="layout">
        <main className="chat">
          <div className="transcript" ref={transcript}>
            {turns.length === 0 ? (
              <p className="empty">
                Pick an agent, then ask for copy: "Headlines for our new espresso machine", "Edit: we are really very excited to
                launch", "Make it shorter", "Translate that into Spanish", "Publish it".
              </p>
            ) : null}
            {turns.map((turn) => (
              <Turn
                key={turn.key}
                turn={turn}
                agentName={nameOf(turn.writtenBy ?? turn.sentTo)}
                actions={
                  turn.status === "running" && turn.turnId
                    ? {
                        approve: (approvalId) => api.approve(turn.sentTo, sessionId!, turn.turnId!, approvalId),
                        deny: (approvalId, reason) => api.deny(turn.sentTo, sessionId!, turn.turnId!, approvalId, reason),
                        defaultDenyReason: "Denied in the Copy Agent",
                      }
                    : undefined
                }
              />
            ))}
          </div>
          {error ? <p className="error">{error}</p> : null}
          <form className="composer" onSubmit={send}>
            <textarea
              aria-label="Message"
              value={input}
              placeholder={activeAgent ? `Ask the ${activeAgent.name.toLowerCase()}… (${activeAgent.description.toLowerCase()})` : ""}
              onChange={(event) => setInput(event.target.value)}
              onKeyDown={(event) => {
                if (event.key === "Enter" && !event.shiftKey) {
                  event.preventDefault();
                  event.currentTarget.form?.requestSubmit();
                }
              }}
              rows={2}
            />
            <button type="submit" className="button button--primary" disabled={running || !input.trim() || !active}>
              Send
            </button>
          </form>
        </main>

        <aside className="published" aria-label="Published">
          <h2>Published</h2>
          {published.length === 0 ? <p className="muted">Nothing yet. Ask an agent to publish a draft; you approve it first.</p> : null}
          <ul>
            {published.map((item) => (
              <li key={`${item.slug}-${item.at}`} data-slug={item.slug}>
                <strong>{item.title}</strong>
                <span className="muted">
                  /published/{item.slug} · {nameOf(item.agent)}
                </span>
              </li>
            ))}
          </ul>
        </aside>
      </div>
    </div>
  );
}

function Turn({ turn, agentName, actions }: { turn: TurnView; agentName: string; actions?: TraceActions }) {
  const waiting = summarizeTrace(turn.rows).status === "pending";
  return (
    <article className="turn" data-turn-id={turn.turnId} data-status={turn.status}>
      <p className="bubble">{turn.input}</p>
      {turn.rows.length > 0 ? (
        <details className="trace" open={turn.status === "running"}>
          <summary>Trace · {describeTrace(summarizeTrace(turn.rows))}</summary>
          <TraceList rows={turn.rows} actions={actions} />
        </details>
      ) : null}
      <div className="reply">
        {turn.text ? <p className="reply__text">{turn.text}</p> : null}
        {turn.status === "running" && !turn.text ? <p className="muted">{waiting ? "Waiting for your approval…" : "Writing…"}</p> : null}
        {turn.error ? <p className="error">{turn.error}</p> : null}
        {turn.writtenBy ? (
          <p className="provenance" data-written-by={turn.writtenBy}>
            Written by {agentName} <code>{turn.writtenBy}</code>
          </p>
        ) : null}
      </div>
    </article>
  );
}
