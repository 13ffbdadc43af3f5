import { RowError, RowFrame, tokens } from "./row-frame.js";
import { ModelIcon } from "./icons.js";
import type { ChatTraceModelRow } from "./types.js";

/** A model call: which model (in its title), and the tokens it used once it is done. */
export function ModelRow({ row }: { row: ChatTraceModelRow }) {
  return (
    <RowFrame
      row={row}
      icon={<ModelIcon />}
      meta={tokens(row.usage)}
      body={row.error && !row.canceled ? <RowError row={row} /> : undefined}
    />
  );
}
