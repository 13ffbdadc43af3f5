import type { ReplySource } from "june/stream";

/**
 * What the model showed besides its reply: its reasoning, collapsed under a line that says how long it
 * thought (open to read), and the sources it cited, as links. Both come redacted from the server.
 */
export function ReasoningBox({ reasoning, ms, thinking }: { reasoning: string; ms?: number; thinking: boolean }) {
  const summary = thinking ? "Thinking…" : ms !== undefined ? `Thought for ${Math.max(1, Math.round(ms / 1000))} s` : "Thought";
  return (
    <details className="turn__reasoning">
      <summary>{summary}</summary>
      <p className="reasoning">{reasoning}</p>
    </details>
  );
}

/** The sources a reply cited, numbered, each a link (a document shows its title). */
export function SourceList({ sources }: { sources: readonly ReplySource[] }) {
  return (
    <ol className="turn__sources" aria-label="Sources">
      {sources.map((source) => (
        <li key={source.id}>
          {source.sourceType === "url" && /^https?:\/\//i.test(source.url) ? (
            <a href={source.url} target="_blank" rel="noreferrer noopener">
              {source.title ?? source.url}
            </a>
          ) : (
            <span>{source.title ?? (source.sourceType === "url" ? source.url : source.filename ?? source.mediaType)}</span>
          )}
        </li>
      ))}
    </ol>
  );
}
