import { useEffect, useState } from "react";
import type { TurnFeedback } from "../api/types";

export interface FeedbackBarProps {
  /** The turn's latest feedback, as journaled. */
  feedback?: TurnFeedback;
  onFeedback(feedback: TurnFeedback): Promise<void>;
}

type Vote = "up" | "down";

/** A score above 0.5 reads as up (a thumbs-up is 1), below as down (a thumbs-down is -1). */
function voteOf(feedback: TurnFeedback | undefined): Vote | null {
  if (!feedback) return null;
  return feedback.score > 0.5 ? "up" : feedback.score < 0.5 ? "down" : null;
}

/**
 * Thumbs up and down on a completed reply, and a comment once it is rated. Each change sends the whole
 * feedback again (the latest supersedes the earlier), keeping the comment and tags already given.
 */
export function FeedbackBar({ feedback, onFeedback }: FeedbackBarProps) {
  const vote = voteOf(feedback);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [commenting, setCommenting] = useState(false);
  const [draft, setDraft] = useState(feedback?.comment ?? "");

  useEffect(() => {
    if (!commenting) setDraft(feedback?.comment ?? "");
  }, [feedback?.comment, commenting]);

  async function send(next: TurnFeedback): Promise<boolean> {
    setBusy(true);
    setError(null);
    try {
      await onFeedback(next);
      return true;
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : String(caught));
      return false;
    } finally {
      setBusy(false);
    }
  }

  function rate(next: Vote) {
    if (busy || next === vote) return;
    const keep: Omit<TurnFeedback, "score"> = {};
    if (feedback?.comment) keep.comment = feedback.comment;
    if (feedback?.tags) keep.tags = feedback.tags;
    void send({ score: next === "up" ? 1 : -1, ...keep });
  }

  async function saveComment() {
    if (!feedback) return;
    const comment = draft.trim();
    const next: TurnFeedback = { score: feedback.score, ...(feedback.tags && { tags: feedback.tags }), ...(comment && { comment }) };
    if (await send(next)) setCommenting(false);
  }

  return (
    <div className="feedback" data-vote={vote ?? "none"}>
      <div className="feedback__row">
        <button
          type="button"
          className="feedback__button"
          aria-label="Good reply"
          title="Good reply"
          aria-pressed={vote === "up"}
          disabled={busy}
          onClick={() => rate("up")}
        >
          <ThumbIcon />
        </button>
        <button
          type="button"
          className="feedback__button feedback__button--down"
          aria-label="Bad reply"
          title="Bad reply"
          aria-pressed={vote === "down"}
          disabled={busy}
          onClick={() => rate("down")}
        >
          <ThumbIcon down />
        </button>
        {feedback && !commenting ? (
          <button type="button" className="feedback__link" onClick={() => setCommenting(true)} disabled={busy}>
            {feedback.comment ? "Edit comment" : "Add a comment"}
          </button>
        ) : null}
      </div>
      {feedback?.comment && !commenting ? <p className="feedback__comment">{feedback.comment}</p> : null}
      {commenting ? (
        <form
          className="feedback__form"
          onSubmit={(event) => {
            event.preventDefault();
            void saveComment();
          }}
        >
          <textarea
            className="feedback__input"
            autoFocus
            rows={2}
            maxLength={10_000}
            aria-label="Feedback comment"
            placeholder={vote === "down" ? "What was wrong with this reply?" : "What was good about this reply?"}
            value={draft}
            onChange={(event) => setDraft(event.target.value)}
          />
          <div className="feedback__actions">
            <button type="submit" className="button button--small button--primary" disabled={busy}>
              {busy ? "Saving…" : "Save comment"}
            </button>
            <button type="button" className="button button--small" onClick={() => setCommenting(false)} disabled={busy}>
              Cancel
            </button>
          </div>
        </form>
      ) : null}
      {error ? <p className="feedback__error">{error}</p> : null}
    </div>
  );
}

/** A thumb, up or (turned over) down. */
function ThumbIcon({ down = false }: { down?: boolean }) {
  return (
    <svg
      viewBox="0 0 16 16"
      width="14"
      height="14"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.4"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      style={down ? { transform: "rotate(180deg)" } : undefined}
    >
      <path d="M5 7v6.5H2.5V7Z" />
      <path d="M5 7l2.6-4.6a1.2 1.2 0 0 1 2.2.8L9.3 6h3.4a1.3 1.3 0 0 1 1.3 1.5l-.8 4.8a1.5 1.5 0 0 1-1.5 1.2H5" />
    </svg>
  );
}
