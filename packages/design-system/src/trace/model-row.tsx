import { IoDetail } from "./io-detail.js";
import { RowFrame, tokens } from "./row-frame.js";
import { ModelIcon } from "./icons.js";
import type { ChatTraceModelRow } from "./types.js";

/**
 * A model call: which model (in its title), the tokens it used once it is done, and what it wrote (a line
 * that opens to the whole, bounded and redacted). A failure reads as a sentence, its detail folded under it.
 */
export function ModelRow({ row }: { row: ChatTraceModelRow }) {
  const failed = row.error !== undefined && !row.canceled;
  const body =
    row.text || failed ? (
      <dl className="jt-io">
        {row.text ? <IoDetail label="Wrote" value={row.text} /> : null}
        {failed ? <IoDetail label="Error" value={row.error!} tone="error" /> : null}
      </dl>
    ) : undefined;
  return <RowFrame row={row} icon={<ModelIcon />} meta={tokens(row.usage)} body={body} />;
}
