import { useState } from "react";
import { type Attachment, Attachments } from "./attachments";

/** Where a turn sits among its alternatives, and how to move to another. */
export interface BranchSwitch {
  /** 0-based. */
  index: number;
  count: number;
  onSelect(index: number): void;
}

export interface TurnInputProps {
  input: string;
  /** The files the message sent. */
  files?: readonly Attachment[];
  /** Sends an edited input in the turn's place: given for the user's last message when no turn runs. */
  onEdit?: (input: string) => Promise<void>;
  /** Given when the turn has alternatives. */
  branch?: BranchSwitch;
}

/** The user's message of a turn, with an inline editor (Enter sends, Shift+Enter a new line, Escape cancels) and the branch switcher. */
export function TurnInput({ input, files = [], onEdit, branch }: TurnInputProps) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(input);
  const [busy, setBusy] = useState(false);

  async function submit() {
    const next = draft.trim();
    if (!onEdit || busy || !next) return;
    setBusy(true);
    try {
      await onEdit(next);
      setEditing(false);
    } finally {
      setBusy(false);
    }
  }

  if (editing && onEdit) {
    return (
      <form
        className="turn__input turn__edit"
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <textarea
          className="turn__edit-input"
          aria-label="Edit message"
          autoFocus
          rows={Math.min(8, Math.max(2, draft.split("\n").length))}
          value={draft}
          disabled={busy}
          onChange={(event) => setDraft(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
              event.preventDefault();
              void submit();
            } else if (event.key === "Escape") {
              setEditing(false);
            }
          }}
        />
        <div className="turn__edit-actions">
          <button type="button" className="button button--small" onClick={() => setEditing(false)} disabled={busy}>
            Cancel
          </button>
          <button type="submit" className="button button--small button--primary" disabled={busy || !draft.trim()}>
            Send
          </button>
        </div>
      </form>
    );
  }

  return (
    <div className="turn__question">
      {files.length > 0 ? (
        <div className="turn__input turn__files">
          <Attachments files={files} />
        </div>
      ) : null}
      {/* A message may be files alone. */}
      {input !== "" || files.length === 0 ? (
        <div className="turn__input">
          <p className="bubble">{input}</p>
        </div>
      ) : null}
      {onEdit || branch ? (
        <div className="turn__input-tools">
          {onEdit ? (
            <button
              type="button"
              className="turn__tool"
              onClick={() => {
                setDraft(input);
                setEditing(true);
              }}
            >
              <PencilIcon />
              Edit
            </button>
          ) : null}
          {branch ? <BranchSwitcher {...branch} /> : null}
        </div>
      ) : null}
    </div>
  );
}

/** "‹ 1 / 2 ›": the turn's place among its alternatives. */
function BranchSwitcher({ index, count, onSelect }: BranchSwitch) {
  return (
    <div className="branch-switch" role="group" aria-label="Alternatives">
      <button
        type="button"
        className="branch-switch__button"
        aria-label="Previous alternative"
        disabled={index <= 0}
        onClick={() => onSelect(index - 1)}
      >
        ‹
      </button>
      <span className="branch-switch__count">
        {index + 1} / {count}
      </span>
      <button
        type="button"
        className="branch-switch__button"
        aria-label="Next alternative"
        disabled={index >= count - 1}
        onClick={() => onSelect(index + 1)}
      >
        ›
      </button>
    </div>
  );
}

function PencilIcon() {
  return (
    <svg viewBox="0 0 16 16" width="12" height="12" fill="none" stroke="currentColor" strokeWidth="1.4" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
      <path d="M10.5 2.5l3 3L6 13H3v-3Z" />
    </svg>
  );
}

/** Two arrows in a circle: answer again. */
export function RegenerateIcon() {
  return (
    <svg viewBox="0 0 16 16" width="13" height="13" fill="none" stroke="currentColor" strokeWidth="1.4" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
      <path d="M13 8a5 5 0 0 1-8.6 3.5" />
      <path d="M3 8a5 5 0 0 1 8.6-3.5" />
      <path d="M11.8 2v2.6H9.2" />
      <path d="M4.2 14v-2.6h2.6" />
    </svg>
  );
}
