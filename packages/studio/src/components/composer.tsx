import { useRef, useState, type KeyboardEvent } from "react";
import { isUnreachable } from "../api/client";

/** Said under the box when a message could not reach the server. */
const NOT_SENT = "Not sent: the Studio server did not answer. Your message is kept here; send it again once Studio is back.";

export interface ComposerProps {
  running: boolean;
  /** The running turn's id is known, so steer and cancel can reach it. */
  canSteer: boolean;
  onSend(input: string): Promise<void>;
  onSteer(input: string): Promise<void>;
  onCancel(): Promise<void>;
}

/** The message box. While a turn runs it steers that turn instead, beside a Cancel button. */
export function Composer({ running, canSteer, onSend, onSteer, onCancel }: ComposerProps) {
  const [value, setValue] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const area = useRef<HTMLTextAreaElement>(null);
  const empty = value.trim().length === 0;

  async function submit() {
    if (empty || busy || (running && !canSteer)) return;
    const input = value.trim();
    setError(null);
    setValue("");
    if (!running) {
      // `onSend` settles when the turn ends; the box is free again (to steer) as soon as it starts.
      onSend(input).catch((caught) => {
        // Not sent: the message goes back in the box, as it was typed.
        setValue(input);
        setError(isUnreachable(caught) ? NOT_SENT : caught instanceof Error ? caught.message : String(caught));
      });
      return;
    }
    setBusy(true);
    try {
      await onSteer(input);
    } catch (caught) {
      setValue(input);
      setError(isUnreachable(caught) ? NOT_SENT : caught instanceof Error ? caught.message : String(caught));
    } finally {
      setBusy(false);
      area.current?.focus();
    }
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void submit();
    }
  }

  return (
    <form
      className={running ? "composer composer--running" : "composer"}
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      {error ? <p className="composer__error">{error}</p> : null}
      <div className="composer__box">
        <textarea
          ref={area}
          className="composer__input"
          aria-label={running ? "Steer the running turn" : "Message"}
          placeholder={running ? "Steer this turn: add a note while it runs…" : "Message June…"}
          rows={1}
          value={value}
          onChange={(event) => setValue(event.target.value)}
          onKeyDown={onKeyDown}
        />
        <div className="composer__actions">
          {running ? (
            <>
              <button type="button" className="button" onClick={() => void onCancel()} disabled={!canSteer} aria-label="Cancel the running turn">
                Cancel
              </button>
              <button type="submit" className="button button--primary" disabled={empty || !canSteer || busy}>
                Steer
              </button>
            </>
          ) : (
            <button type="submit" className="button button--primary" disabled={empty}>
              Send
            </button>
          )}
        </div>
      </div>
      <p className="composer__hint">{running ? "Enter steers the running turn · Cancel stops it" : "Enter to send · Shift+Enter for a new line"}</p>
    </form>
  );
}
