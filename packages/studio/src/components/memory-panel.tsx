import { useEffect, useState } from "react";
import type { StudioClient } from "../api/client";
import type { MemoryView } from "../api/types";
import { message } from "../state/message";
import { relativeTime } from "./relative-time";

export interface MemoryPanelProps {
  client: StudioClient;
  /** The open session's owner: the memory shown until another owner is typed in. */
  sessionOwner?: string;
  /** Changes whenever the open session's turns do: the memory is read again. */
  refreshKey: string;
}

/**
 * An owner's memory (`createChat({ memory })`): the working memory's text and its versions (which turn wrote
 * each, when), and Forget (`DELETE /memory`: the text, its versions and the owner's recall index). The owner is
 * the open session's; the field picks another. Shown only when the chat keeps memory.
 */
export function MemoryPanel({ client, sessionOwner, refreshKey }: MemoryPanelProps) {
  const [owner, setOwner] = useState(sessionOwner ?? "");
  const [view, setView] = useState<MemoryView | null>(null);
  // Whether the chat keeps memory: learned from the first owner's read (404: it keeps none, and is not asked again).
  const [kept, setKept] = useState<boolean | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [reads, setReads] = useState(0);
  const who = owner.trim();
  useEffect(() => setOwner(sessionOwner ?? ""), [sessionOwner]);
  useEffect(() => {
    // Asked only with an owner, so a chat without memory (or a session without owner) costs no failed request.
    if (!who || kept === false) return setView(null);
    let live = true;
    client.getMemory(who).then(
      (read) => {
        if (!live) return;
        setKept(read !== undefined);
        setView(read ?? null);
        setError(null);
      },
      (caught) => live && setError(message(caught)),
    );
    return () => {
      live = false;
    };
  }, [client, who, kept, refreshKey, reads]);
  if (kept !== true) return null;
  const versions = view?.versions ?? [];
  const forget = () => {
    if (!who || !window.confirm(`Forget ${who}'s memory: the working memory, its versions and the recall of their earlier sessions?`)) return;
    setBusy(true);
    client
      .forgetMemory(who)
      .then(() => setReads((n) => n + 1), (caught) => setError(message(caught)))
      .finally(() => setBusy(false));
  };
  return (
    <section className="memory-panel" aria-label="Memory">
      <h2 className="memory-panel__title">Memory</h2>
      <label className="memory-panel__owner">
        <span>Owner</span>
        <input value={owner} onChange={(event) => setOwner(event.target.value)} placeholder="whose memory" spellCheck={false} />
      </label>
      {!who ? (
        <p className="sidebar__empty">{sessionOwner === undefined ? "This session has no owner: memory is kept per owner. Type one to look." : ""}</p>
      ) : view?.memory && view.memory.text !== "" ? (
        <>
          <p className="memory-panel__text" data-version={view.memory.version}>
            {view.memory.text}
          </p>
          <p className="memory-panel__meta">
            version {view.memory.version} · {relativeTime(view.memory.at)}
          </p>
        </>
      ) : (
        <p className="sidebar__empty memory-panel__none">No working memory for {who}.</p>
      )}
      {who && versions.length > 0 ? (
        <details className="memory-panel__versions">
          <summary>
            {versions.length} {versions.length === 1 ? "version" : "versions"}
          </summary>
          <ol>
            {[...versions].reverse().map((version) => (
              <li key={version.version} data-version={version.version}>
                <span className="memory-panel__version">v{version.version}</span> {relativeTime(version.at)}
                {version.sessionId ? <a href={`#session=${encodeURIComponent(version.sessionId)}`}> from session {version.sessionId.slice(0, 8)}</a> : <span> set by the app</span>}
                <p className="memory-panel__version-text">{version.text || "(empty)"}</p>
              </li>
            ))}
          </ol>
        </details>
      ) : null}
      {who ? (
        <button type="button" className="button memory-panel__forget" disabled={busy} onClick={forget}>
          Forget
        </button>
      ) : null}
      {error ? <p className="memory-panel__error">{error}</p> : null}
    </section>
  );
}
