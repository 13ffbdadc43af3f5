import { formatDuration } from "./duration.js";
import { describeModelErrorCause } from "./error-words.js";
import { IoDetail } from "./io-detail.js";
import { MessagesDetail } from "./messages-detail.js";
import { RowFrame, tokens } from "./row-frame.js";
import { ModelIcon } from "./icons.js";
import type { ChatTraceAttempt, ChatTraceModelRow } from "./types.js";

/**
 * A model call: which model (in its title), the tokens it used once it is done, an excerpt of what it
 * reasoned (thinking, a reasoning summary), what it was sent and what it answered (each a line that opens to the messages, bounded and redacted), each request the AI SDK
 * retried as it failed (in words, the provider's error folded under each), and a failure's own error folded.
 */
export function ModelRow({ row }: { row: ChatTraceModelRow }) {
  const failed = row.error !== undefined && !row.canceled;
  const attempts = row.failedAttempts ?? [];
  // A call that failed once and was not retried says so in its error; a list of one attempt says nothing more.
  const showAttempts = attempts.length > 1 || (attempts.length === 1 && !failed);
  // What it wrote reads as before; the response's messages add what the text does not say (tool results).
  const response = row.response && (!row.text || row.response.length > 1) ? row.response : undefined;
  const body =
    row.text || row.reasoning || row.prompt || response || failed || showAttempts ? (
      <>
        {row.text || row.reasoning ? (
          <dl className="jt-io">
            {row.reasoning ? <IoDetail label="Thought" value={row.reasoning} /> : null}
            {row.text ? <IoDetail label="Wrote" value={row.text} /> : null}
          </dl>
        ) : null}
        {row.prompt || response ? (
          <dl className="jt-io jt-io--messages">
            {row.prompt ? <MessagesDetail label="Prompt" messages={row.prompt} omitted={row.promptOmitted} /> : null}
            {response ? <MessagesDetail label="Response" messages={response} /> : null}
          </dl>
        ) : null}
        {showAttempts ? <Attempts attempts={attempts} retrying={row.status === "running"} /> : null}
        {failed ? <Failure error={row.error!} /> : null}
      </>
    ) : undefined;
  return <RowFrame row={row} icon={<ModelIcon />} meta={tokens(row.usage, row.cost)} body={body} />;
}

/** The failed requests, oldest first, each in words with its raw error folded under it. */
function Attempts({ attempts, retrying }: { attempts: readonly ChatTraceAttempt[]; retrying: boolean }) {
  return (
    <ol className="jt-attempts" aria-label="Failed attempts">
      {attempts.map((attempt, index) => {
        const last = index === attempts.length - 1;
        const took = formatDuration(attempt.endedAt - attempt.startedAt);
        return (
          <li className="jt-attempt" key={attempt.attempt} data-attempt={attempt.attempt}>
            <details className="jt-attempt__detail">
              <summary>
                <span className="jt-attempt__words">
                  {`Attempt ${attempt.attempt} failed${took ? ` after ${took}` : ""}: ${describeModelErrorCause(attempt.error) ?? "the request did not go through."}`}
                  {last && retrying ? " Retrying…" : ""}
                </span>
              </summary>
              <code>{attempt.error}</code>
            </details>
          </li>
        );
      })}
    </ol>
  );
}

/**
 * The call's failure, folded: the turn it belongs to says it in words (Studio's turn footer), so the row
 * keeps the provider's error itself, one click away, and does not say the same sentence twice.
 */
function Failure({ error }: { error: string }) {
  return (
    <dl className="jt-io jt-failure">
      <IoDetail label="Error" value={error} tone="error" fold />
    </dl>
  );
}
