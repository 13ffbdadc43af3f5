import { useMemo, useState, type ReactNode } from "react";
import type { SessionInfo } from "../api/types";
import { SessionItem } from "./session-item";
import { cutTitles } from "./title-cut";

export interface SidebarProps {
  sessions: SessionInfo[];
  loaded: boolean;
  /** The list could not be read (the pane shows why). */
  failed?: boolean;
  selectedId: string | null;
  /** The open session's cost (`sessionCostLabel` of the server's `cost`), shown on its item. */
  selectedCost?: string;
  onSelect(id: string): void;
  onNew(): void;
  onDelete(id: string): void;
  /** Renames a session; rejects with the server's reason when it refused. */
  onRename(id: string, title: string): Promise<void>;
  /** Closes the drawer (narrow screens). */
  onClose?(): void;
  /** Shown below the sessions (the chat's schedules). */
  footer?: ReactNode;
}

/** When a session started, to tell apart sessions with one title: "Dec 1, 09:15:22". */
function startedAt(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  return date.toLocaleString(undefined, { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", second: "2-digit" });
}

/**
 * The chat's sessions, newest first, with a search over their titles and a button for a new one (made by
 * its first message, so none is left empty). Sessions that share a title also show when each started;
 * titles that start alike for longer than the sidebar shows are cut in the middle, so the end that differs
 * shows; any can be renamed in place.
 */
export function Sidebar({ sessions, loaded, failed = false, selectedId, selectedCost, onSelect, onNew, onDelete, onRename, onClose, footer }: SidebarProps) {
  const [query, setQuery] = useState("");
  const repeated = useMemo(() => {
    const counts = new Map<string, number>();
    for (const session of sessions) counts.set(session.title ?? "", (counts.get(session.title ?? "") ?? 0) + 1);
    return counts;
  }, [sessions]);
  // Titles that would read the same once cut show the end that tells them apart (`cutTitles`).
  const cuts = useMemo(() => {
    const titled = sessions.filter((session) => session.title);
    const cut = cutTitles(titled.map((session) => session.title!));
    return new Map(titled.map((session, index) => [session.id, cut[index]!]));
  }, [sessions]);
  const needle = query.trim().toLowerCase();
  const shown = needle ? sessions.filter((session) => (session.title ?? "").toLowerCase().includes(needle)) : sessions;
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
        {onClose ? (
          <button type="button" className="sidebar__close" onClick={onClose} aria-label="Hide sessions">
            ×
          </button>
        ) : null}
      </header>
      {sessions.length > 0 ? (
        <div className="sidebar__search">
          <input
            type="search"
            className="sidebar__search-input"
            placeholder="Search sessions"
            aria-label="Search sessions"
            value={query}
            onChange={(event) => setQuery(event.target.value)}
          />
        </div>
      ) : null}
      {loaded && !failed && sessions.length === 0 ? <p className="sidebar__empty">No sessions yet. Your first message starts one.</p> : null}
      {needle && shown.length === 0 ? <p className="sidebar__empty">No session title has “{query.trim()}”.</p> : null}
      <ul className="session-list">
        {shown.map((session) => (
          <SessionItem
            key={session.id}
            session={session}
            selected={session.id === selectedId}
            started={(repeated.get(session.title ?? "") ?? 0) > 1 ? startedAt(session.createdAt) : undefined}
            titleCut={cuts.get(session.id)}
            cost={session.id === selectedId ? selectedCost : undefined}
            onSelect={() => onSelect(session.id)}
            onDelete={() => onDelete(session.id)}
            onRename={(title) => onRename(session.id, title)}
          />
        ))}
      </ul>
      {footer}
    </aside>
  );
}
