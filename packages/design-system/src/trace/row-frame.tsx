import type { ReactNode } from "react";
import { RowDuration } from "./duration.js";
import { haltedTitle, useHalt } from "./halted.js";
import { StatusBadge } from "./status-badge.js";
import type { ChatTraceRow } from "./types.js";

export interface RowFrameProps {
  row: ChatTraceRow;
  /** A short mark for the row's kind, drawn before the title. */
  icon: ReactNode;
  /** A quiet note after the title: a token count, a tool's name. */
  meta?: ReactNode;
  /** Content under the title line: summaries, buttons. */
  body?: ReactNode;
  /** Nested rows. */
  nested?: ReactNode;
  /** Content after the nested rows: what a step wrote. */
  after?: ReactNode;
  /** False when a row nested under this one says its state (default true): a state is said once. */
  badge?: boolean;
}

/**
 * The layout every row kind shares: icon, title, meta, duration and status on one line; body and nested
 * rows under it.
 */
export function RowFrame({ row, icon, meta, body, nested, after, badge = true }: RowFrameProps) {
  const denied = row.kind === "tool" && row.approval?.state === "denied";
  const title = haltedTitle(row, useHalt());
  return (
    <li
      className={`jt-row jt-row--${row.kind} jt-row--${row.status}${denied ? " jt-row--denied" : ""}`}
      data-row-id={row.id}
      data-kind={row.kind}
      data-status={row.status}
      data-denied={denied ? "true" : undefined}
    >
      <div className="jt-row__line">
        <span className="jt-row__icon" aria-hidden="true">
          {icon}
        </span>
        <span className="jt-row__title" title={title}>
          {title}
        </span>
        {meta ? <span className="jt-row__meta">{meta}</span> : null}
        <RowDuration row={row} />
        {badge ? <StatusBadge status={row.status} canceled={row.canceled} denied={denied} /> : null}
      </div>
      {body ? <div className="jt-row__body">{body}</div> : null}
      {nested}
      {after ? <div className="jt-row__after">{after}</div> : null}
    </li>
  );
}

/** A row's failure, unless it is the cancel every row of a canceled run shares. */
export function RowError({ row }: { row: ChatTraceRow }) {
  if (!row.error || row.canceled) return null;
  return <p className="jt-error">{row.error}</p>;
}

/** "1,234 tokens", from a row's usage, and "· $0.00043" after it when the row has a cost (none when the model's price is not known). */
export function tokens(usage: { totalTokens: number } | undefined, cost?: { usd?: number }): string | undefined {
  if (!usage) return undefined;
  const words = `${usage.totalTokens.toLocaleString()} tokens`;
  return cost?.usd === undefined ? words : `${words} · ${formatUsd(cost.usd)}`;
}

/** A cost in USD as people read it: "$0.00043", "$1.25" (the words of `formatCost` in `june`). */
export function formatUsd(amount: number): string {
  if (amount === 0) return "$0";
  if (amount >= 1) return `$${amount.toFixed(2)}`;
  return `$${amount.toPrecision(2).replace(/0+$/, "").replace(/\.$/, "")}`;
}
