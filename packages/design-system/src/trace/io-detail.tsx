/**
 * A tool's input or output, or what a model call wrote: one line that fits the row, and under it, on
 * request, the whole (bounded, redacted) value, JSON laid out on lines. Values arrive already redacted
 * and bounded (`projectChatTrace` made them); nothing here sees more than the row carries.
 */

/** JSON text laid out on lines, or the text as it is when it is not JSON (or was cut). */
export function prettyValue(text: string): string {
  const trimmed = text.trim();
  if (!/^[[{]/.test(trimmed)) return text;
  try {
    return JSON.stringify(JSON.parse(trimmed), null, 2);
  } catch {
    return text;
  }
}

export interface IoDetailProps {
  label: string;
  value: string;
  tone?: "error";
  /** Open at first (e.g. a short value, or an error). */
  open?: boolean;
  /** Folded away, however short: a raw error under the sentence that says it. */
  fold?: boolean;
}

/** One labelled value: a one-line preview, expandable to the whole value. */
export function IoDetail({ label, value, tone, open, fold = false }: IoDetailProps) {
  const pretty = prettyValue(value);
  const single = !value.includes("\n") && value.length <= 80;
  const className = tone ? `jt-io__line jt-io__line--${tone}` : "jt-io__line";
  if (fold) {
    return (
      <div className={className}>
        <dt>{label}</dt>
        <dd>
          <details className="jt-more jt-more--folded" open={open}>
            <summary className="jt-more__summary" />
            <pre className="jt-more__body">{pretty}</pre>
          </details>
        </dd>
      </div>
    );
  }
  if (single) {
    return (
      <div className={className}>
        <dt>{label}</dt>
        <dd>
          <code>{value}</code>
        </dd>
      </div>
    );
  }
  return (
    <div className={className}>
      <dt>{label}</dt>
      <dd>
        <details className="jt-more" open={open}>
          <summary className="jt-more__summary">
            <code className="jt-more__preview">{value}</code>
          </summary>
          <pre className="jt-more__body">{pretty}</pre>
        </details>
      </dd>
    </div>
  );
}
