import { RowError, RowFrame, tokens } from "./row-frame";
import { ModelIcon } from "./icons";
import type { TraceModelRow } from "./types";

/** A model call: which model (in its title), and the tokens it used once it is done. */
export function ModelRow({ row }: { row: TraceModelRow }) {
  return (
    <RowFrame
      row={row}
      icon={<ModelIcon />}
      meta={tokens(row.usage)}
      body={row.error && !row.canceled ? <RowError row={row} /> : undefined}
    />
  );
}
