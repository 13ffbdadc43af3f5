import { ApprovalRow } from "./approval-row.js";
import { HaltProvider, type TraceHalt } from "./halted.js";
import { ModelRow } from "./model-row.js";
import { StepRow } from "./step-row.js";
import { ToolRow } from "./tool-row.js";
import type { TraceActions, ChatTraceRow } from "./types.js";

export interface TraceListProps {
  rows: readonly ChatTraceRow[];
  /** What approval rows call; without it they show no buttons. */
  actions?: TraceActions;
  /** How a nested list sits under its row: `guide` with a line on its left, `inset` under the row's body. */
  nested?: "guide" | "inset";
  /**
   * The turn stopped (`suspended`, `interrupted`) with these rows as they were: a row still running reads
   * "Suspended" or "Interrupted" instead of "Running", nested rows included. Leave it out while the turn runs.
   */
  halted?: TraceHalt;
}

/** A trace as a list of rows, nested as the workflow nests them. Replace `rows` with each new snapshot's. */
export function TraceList({ rows, actions, nested, halted }: TraceListProps) {
  if (rows.length === 0) return null;
  if (halted) {
    return (
      <HaltProvider value={halted}>
        <TraceList rows={rows} actions={actions} nested={nested} />
      </HaltProvider>
    );
  }
  return (
    <ul className={nested ? `jt-list jt-list--${nested}` : "jt-list"}>
      {rows.map((row) => (
        <TraceRowView key={row.id} row={row} actions={actions} />
      ))}
    </ul>
  );
}

export interface TraceRowViewProps {
  row: ChatTraceRow;
  actions?: TraceActions;
}

/** One row, drawn by the composition for its kind. */
export function TraceRowView({ row, actions }: TraceRowViewProps) {
  const kind = row.kind;
  switch (row.kind) {
    case "step":
      return <StepRow row={row} actions={actions} />;
    case "model":
      return <ModelRow row={row} />;
    case "tool":
      return <ToolRow row={row} actions={actions} />;
    case "approval":
      return <ApprovalRow row={row} actions={actions} />;
    default: {
      // A kind newer than these components: draw its title, never crash the trace.
      const unknown: never = row;
      return <UnknownRow row={unknown as { id: string; title: string }} kind={String(kind)} />;
    }
  }
}

function UnknownRow({ row, kind }: { row: { id: string; title: string }; kind: string }) {
  return (
    <li className="jt-row" data-row-id={row.id} data-kind={kind}>
      <div className="jt-row__line">
        <span className="jt-row__title">{row.title}</span>
      </div>
    </li>
  );
}
