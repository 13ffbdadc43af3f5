import { useEffect, useRef, useState } from "react";
import type { SessionInfo } from "../api/types";
import { message } from "../state/message";
import { relativeTime } from "./relative-time";
import type { TitleCut } from "./title-cut";

/** The longest title the server keeps (it says so past it). */
const TITLE_MAX_CHARS = 80;

export interface SessionItemProps {
  session: SessionInfo;
  selected: boolean;
  /** When it started, shown when another session has the same title. */
  started?: string;
  /** Where its title is cut when it starts like another's (`cutTitles`); without it, at the end. */
  titleCut?: TitleCut;
  /** What the session cost ("$0.0012", "cost unknown"), shown after its age: the sidebar gives it for the open session. */
  cost?: string;
  onSelect(): void;
  onDelete(): void;
  /** Renames the session; rejects with what the server said when it refused. */
  onRename(title: string): Promise<void>;
}

/**
 * One session in the sidebar: its title, turn count and age (and start, to tell it apart). The title is
 * edited in place (the pencil, or a double click: Enter saves, Escape leaves it as it was); deleting asks
 * once more, in place.
 */
export function SessionItem({ session, selected, started, titleCut, cost, onSelect, onDelete, onRename }: SessionItemProps) {
  const [confirming, setConfirming] = useState(false);
  const [editing, setEditing] = useState(false);

  useEffect(() => {
    if (!confirming) return;
    const timer = setTimeout(() => setConfirming(false), 4000);
    return () => clearTimeout(timer);
  }, [confirming]);

  const turns = session.turnCount === 1 ? "1 turn" : `${session.turnCount} turns`;
  const title = session.title || "New session";
  return (
    <li className={selected ? "session session--selected" : "session"} data-session-id={session.id}>
      {editing ? (
        <TitleEditor title={session.title ?? ""} onSave={onRename} onDone={() => setEditing(false)} />
      ) : (
        <>
          <button
            type="button"
            className="session__open"
            onClick={onSelect}
            onDoubleClick={() => setEditing(true)}
            aria-current={selected ? "page" : undefined}
            title={title}
          >
            {titleCut?.tail ? (
              <span className="session__title session__title--cut">
                <span className="session__title-head">{titleCut.head}</span>
                <span className="session__title-tail">{titleCut.tail}</span>
              </span>
            ) : (
              <span className="session__title">{title}</span>
            )}
            <span className="session__meta">
              {started ? `Started ${started} · ` : ""}
              {turns} · {relativeTime(session.updatedAt)}
              {cost ? ` · ${cost}` : ""}
            </span>
          </button>
          <button type="button" className="session__action session__rename" aria-label="Rename session" title="Rename" onClick={() => setEditing(true)}>
            <svg viewBox="0 0 16 16" width="14" height="14" fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
              <path d="M10.5 3.5l2 2L6 12H4v-2l6.5-6.5z" />
            </svg>
          </button>
          <button
            type="button"
            className={confirming ? "session__action session__delete session__delete--confirm" : "session__action session__delete"}
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
        </>
      )}
    </li>
  );
}

/** The title as a field: Enter (or leaving it) saves a changed title, Escape cancels; a refusal is said under it. */
function TitleEditor({ title, onSave, onDone }: { title: string; onSave(title: string): Promise<void>; onDone(): void }) {
  const [draft, setDraft] = useState(title);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => {
    input.current?.focus();
    input.current?.select();
  }, []);

  const save = async () => {
    const next = draft.trim();
    if (saving) return;
    if (next === "" || next === title) return onDone();
    setSaving(true);
    try {
      await onSave(next);
      onDone();
    } catch (caught) {
      setSaving(false);
      setError(message(caught));
    }
  };

  return (
    <form
      className="session__edit"
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <input
        ref={input}
        className="session__edit-input"
        aria-label="Session title"
        value={draft}
        maxLength={TITLE_MAX_CHARS}
        disabled={saving}
        aria-invalid={error !== null}
        onChange={(event) => {
          setDraft(event.target.value);
          setError(null);
        }}
        onKeyDown={(event) => {
          if (event.key === "Escape") {
            event.preventDefault();
            onDone();
          }
        }}
        onBlur={() => {
          if (error === null) void save();
        }}
      />
      {error ? (
        <span className="session__edit-error" role="alert">
          {error}
        </span>
      ) : (
        <span className="session__meta">Enter to save · Esc to cancel</span>
      )}
    </form>
  );
}
