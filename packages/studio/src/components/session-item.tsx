import { useEffect, useState } from "react";
import type { SessionInfo } from "../api/types";
import { relativeTime } from "./relative-time";

export interface SessionItemProps {
  session: SessionInfo;
  selected: boolean;
  /** When it started, shown when another session has the same title. */
  started?: string;
  onSelect(): void;
  onDelete(): void;
}

/** One session in the sidebar: its title, turn count and age (and start, to tell it apart). Deleting asks once more, in place. */
export function SessionItem({ session, selected, started, onSelect, onDelete }: SessionItemProps) {
  const [confirming, setConfirming] = useState(false);

  useEffect(() => {
    if (!confirming) return;
    const timer = setTimeout(() => setConfirming(false), 4000);
    return () => clearTimeout(timer);
  }, [confirming]);

  const turns = session.turnCount === 1 ? "1 turn" : `${session.turnCount} turns`;
  return (
    <li className={selected ? "session session--selected" : "session"} data-session-id={session.id}>
      <button type="button" className="session__open" onClick={onSelect} aria-current={selected ? "page" : undefined}>
        <span className="session__title">{session.title || "New session"}</span>
        <span className="session__meta">
          {started ? `Started ${started} · ` : ""}
          {turns} · {relativeTime(session.updatedAt)}
        </span>
      </button>
      <button
        type="button"
        className={confirming ? "session__delete session__delete--confirm" : "session__delete"}
        aria-label={confirming ? "Confirm delete session" : "Delete session"}
        title={confirming ? "Click again to delete" : "Delete session"}
        onClick={() => (confirming ? onDelete() : setConfirming(true))}
      >
        {confirming ? (
          "Delete?"
        ) : (
          <svg viewBox="0 0 16 16" width="14" height="14" fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" aria-hidden="true">
            <path d="M3 4.5h10M6.5 4.5V3h3v1.5M4.5 4.5l.6 8.5h5.8l.6-8.5" />
          </svg>
        )}
      </button>
    </li>
  );
}
