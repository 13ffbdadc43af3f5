import type { SessionSummary } from "../api/types";
import { SessionItem } from "./session-item";

export interface SidebarProps {
  sessions: SessionSummary[];
  loaded: boolean;
  /** The list could not be read (the pane shows why). */
  failed?: boolean;
  selectedId: string | null;
  onSelect(id: string): void;
  onNew(): void;
  onDelete(id: string): void;
}

/** The chat's sessions, newest first, with a button for a new one. */
export function Sidebar({ sessions, loaded, failed = false, selectedId, onSelect, onNew, onDelete }: SidebarProps) {
  return (
    <aside className="sidebar" aria-label="Sessions">
      <header className="sidebar__header">
        <span className="brand">
          <span className="brand__mark" aria-hidden="true" />
          June Studio
        </span>
        <button type="button" className="button button--small" onClick={onNew}>
          New session
        </button>
      </header>
      {loaded && !failed && sessions.length === 0 ? <p className="sidebar__empty">No sessions yet.</p> : null}
      <ul className="session-list">
        {sessions.map((session) => (
          <SessionItem
            key={session.id}
            session={session}
            selected={session.id === selectedId}
            onSelect={() => onSelect(session.id)}
            onDelete={() => onDelete(session.id)}
          />
        ))}
      </ul>
    </aside>
  );
}
