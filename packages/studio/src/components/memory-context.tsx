import type { TurnMemoryProvenance } from "../api/types";

/**
 * What a turn's context took from memory, from its provenance: the working memory's version, and each earlier
 * turn recall brought in (its session, opened by the link, its turn and its score). Never the texts: the
 * provenance names what went in, the memory panel and the sessions show it. A turn whose recall search failed says
 * so, with the (masked) error the turn journaled.
 */
export function MemoryContext({ memory }: { memory: TurnMemoryProvenance }) {
  const recalled = memory.recalled ?? [];
  const failed = memory.recallError;
  if (!memory.working && recalled.length === 0 && !failed) return null;
  const summary = [
    memory.working ? `working memory v${memory.working.version}` : undefined,
    recalled.length > 0 ? `${recalled.length} recalled ${recalled.length === 1 ? "turn" : "turns"}` : undefined,
    failed ? "recall failed" : undefined,
  ]
    .filter(Boolean)
    .join(" · ");
  return (
    <details className="turn__context" aria-label="Context">
      <summary className="turn__trace-summary">
        <span className="turn__trace-label">Context</span>
        <span>{summary}</span>
      </summary>
      <ul className="turn__context-list">
        {memory.working ? (
          <li data-kind="working-memory">
            Working memory, version {memory.working.version} ({memory.working.scope === "owner" ? "the owner's" : "this session's"})
          </li>
        ) : null}
        {recalled.map((turn) => (
          <li key={`${turn.sessionId}/${turn.turnId}`} data-kind="recalled" data-session-id={turn.sessionId} data-turn-id={turn.turnId}>
            Recalled <a href={`#session=${encodeURIComponent(turn.sessionId)}`}>session {turn.sessionId.slice(0, 8)}</a>, turn {turn.turnId.slice(0, 8)} · score {turn.score.toFixed(2)}
          </li>
        ))}
        {failed ? (
          <li data-kind="recall-error" role="status">
            Recall failed, so this turn went on without it: {failed.name}: {failed.message}
          </li>
        ) : null}
      </ul>
    </details>
  );
}
