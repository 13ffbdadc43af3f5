import { useEffect, useRef, useState, type ClipboardEvent, type DragEvent, type KeyboardEvent } from "react";
import { isUnreachable } from "../api/client";
import { type Attachment, Attachments } from "./attachments";

/** Said under the box when a message could not reach the server. */
const NOT_SENT = "Not sent: the Studio server did not answer. Your message is kept here; send it again once Studio is back.";

export interface ComposerProps {
  running: boolean;
  /** The running turn's id is known, so steer and cancel can reach it. */
  canSteer: boolean;
  /** Sends a message: its text (may be empty when files are attached) and its files. */
  onSend(input: string, files: File[]): Promise<void>;
  onSteer(input: string): Promise<void>;
  onCancel(): Promise<void>;
}

/** A file attached to the draft, with the object URL its preview shows. */
interface Draft extends Attachment {
  file: File;
}

let drafted = 0;

/**
 * The message box, where files are attached by its button, by dropping them on it or by pasting them. While a
 * turn runs it steers that turn instead (text only), beside a Cancel button.
 */
export function Composer({ running, canSteer, onSend, onSteer, onCancel }: ComposerProps) {
  const [value, setValue] = useState("");
  const [files, setFiles] = useState<Draft[]>([]);
  const [dragging, setDragging] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const area = useRef<HTMLTextAreaElement>(null);
  const picker = useRef<HTMLInputElement>(null);
  const empty = value.trim().length === 0 && (running || files.length === 0);
  const previews = useRef(files);
  previews.current = files;
  // The previews' object URLs go with the page.
  useEffect(() => () => previews.current.forEach((file) => URL.revokeObjectURL(file.url)), []);

  function attach(list: FileList | readonly File[] | null) {
    const added = [...(list ?? [])].map((file): Draft => ({
      key: `draft-${++drafted}`,
      file,
      url: URL.createObjectURL(file),
      mediaType: file.type || "application/octet-stream",
      filename: file.name,
      size: file.size,
    }));
    if (added.length > 0) setFiles((current) => [...current, ...added]);
  }

  function remove(key: string) {
    const gone = files.find((file) => file.key === key);
    if (gone) URL.revokeObjectURL(gone.url);
    setFiles((current) => current.filter((file) => file.key !== key));
  }

  function onPaste(event: ClipboardEvent<HTMLTextAreaElement>) {
    if (running || event.clipboardData.files.length === 0) return;
    // A pasted image (a screenshot) is attached; pasted text goes in the box as usual.
    event.preventDefault();
    attach(event.clipboardData.files);
  }

  function onDrop(event: DragEvent<HTMLFormElement>) {
    setDragging(false);
    if (running || event.dataTransfer.files.length === 0) return;
    event.preventDefault();
    attach(event.dataTransfer.files);
  }

  async function submit() {
    if (empty || busy || (running && !canSteer)) return;
    const input = value.trim();
    setError(null);
    setValue("");
    if (!running) {
      const sent = files;
      setFiles([]);
      // `onSend` settles when the turn ends; the box is free again (to steer) as soon as it starts.
      onSend(
        input,
        sent.map((draft) => draft.file),
      )
        .then(() => sent.forEach((draft) => URL.revokeObjectURL(draft.url)))
        .catch((caught) => {
          // Not sent: the message goes back in the box, as it was typed, with its files.
          setValue(input);
          setFiles(sent);
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
      className={["composer", running && "composer--running", dragging && "composer--dropping"].filter(Boolean).join(" ")}
      aria-label="Composer"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
      onDragOver={(event) => {
        if (running || !event.dataTransfer.types.includes("Files")) return;
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
    >
      {error ? <p className="composer__error">{error}</p> : null}
      {!running ? <Attachments files={files} onRemove={remove} /> : null}
      <div className="composer__box">
        <input
          ref={picker}
          type="file"
          multiple
          hidden
          aria-label="Files to attach"
          onChange={(event) => {
            attach(event.currentTarget.files);
            event.currentTarget.value = "";
          }}
        />
        {!running ? (
          <button type="button" className="composer__attach" aria-label="Attach files" title="Attach files" onClick={() => picker.current?.click()}>
            <PaperclipIcon />
          </button>
        ) : null}
        <textarea
          ref={area}
          className="composer__input"
          aria-label={running ? "Steer the running turn" : "Message"}
          placeholder={running ? "Steer this turn: add a note while it runs…" : "Message June…"}
          rows={1}
          value={value}
          onChange={(event) => setValue(event.target.value)}
          onKeyDown={onKeyDown}
          onPaste={onPaste}
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
      <p className="composer__hint">{running ? "Enter steers the running turn · Cancel stops it" : "Enter to send · Shift+Enter for a new line · drop or paste files to attach"}</p>
    </form>
  );
}

function PaperclipIcon() {
  return (
    <svg viewBox="0 0 16 16" width="16" height="16" fill="none" stroke="currentColor" strokeWidth="1.4" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
      <path d="M13.5 7.5l-5.6 5.6a3.3 3.3 0 0 1-4.7-4.7l5.8-5.8a2.2 2.2 0 0 1 3.1 3.1l-5.8 5.8a1.1 1.1 0 0 1-1.6-1.6l5.3-5.3" />
    </svg>
  );
}
