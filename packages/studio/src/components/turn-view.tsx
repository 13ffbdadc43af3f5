import { useState } from "react";
import { isUnfinished, type ReplySource } from "june/stream";
import { ReasoningBox, SourceList } from "./reply-asides";
import type { TurnError, TurnFeedback, TurnMemoryProvenance, TurnMetadata, TurnStatus } from "../api/types";
import { MemoryContext } from "./memory-context";
import { describeTrace, formatUsd, summarizeTrace, TraceList, type TraceActions, type ChatTraceRow } from "june-design-system";
import type { Attachment } from "./attachments";
import { FeedbackBar } from "./feedback-bar";
import { type BranchSwitch, RegenerateIcon, TurnInput } from "./turn-input";
import { describeTurnError } from "./turn-error";

export interface TurnViewProps {
  turn: {
    id?: string;
    turnId?: string;
    input: string;
    files?: readonly Attachment[];
    steers: string[];
    text: string;
    status: TurnStatus;
    error?: TurnError;
    /** The model's reasoning (a live turn's, or a journaled one's), and how long it took when known. */
    reasoning?: string;
    reasoningMs?: number;
    /** The sources the reply cited. */
    sources?: readonly ReplySource[];
  };
  rows: ChatTraceRow[];
  metadata?: TurnMetadata;
  /** What the turn's context took from memory (its provenance): the working memory's version, the turns recalled. */
  memory?: TurnMemoryProvenance;
  /** Approve and deny, for a turn that is running (or a durable one, suspended, that deciding resumes). */
  actions?: TraceActions;
  live?: boolean;
  /** The turn's latest feedback, from its journaled record. */
  feedback?: TurnFeedback;
  /** Sends feedback: given for a journaled, completed turn, which then shows thumbs up and down. */
  onFeedback?: (feedback: TurnFeedback) => Promise<void>;
  /** Answers the input again: given for the last turn once it ended. */
  onRegenerate?: () => void;
  /** Sends a new input in this turn's place: given for the last turn once it ended. */
  onEdit?: (input: string) => Promise<void>;
  /** The turn's place among its alternatives, when it has some. */
  branch?: BranchSwitch;
  /** Ends a suspended turn without running anything: given for a parked durable turn. */
  onCancel?: () => Promise<void>;
  /** Questions the running turn asks (`<AskUser />`), each answered in its own text box. */
  questions?: { id: string; question: string }[];
  onAnswer?: (requestId: string, value: string) => Promise<void>;
}

/** One turn: the user's input, its trace rows, then the reply as it is written. */
export function TurnView({ turn, rows, metadata, memory, actions, live = false, feedback, onFeedback, onRegenerate, onEdit, branch, onCancel, questions, onAnswer }: TurnViewProps) {
  const running = turn.status === "running";
  const id = turn.turnId ?? turn.id;
  return (
    <article className="turn" data-turn-id={id} data-status={turn.status}>
      <TurnInput input={turn.input} files={turn.files} onEdit={onEdit} branch={branch} />
      {turn.steers.map((steer, index) => (
        <div className="turn__input" key={index}>
          <p className="bubble bubble--steer">
            <span className="bubble__label">Steer</span>
            {steer}
          </p>
        </div>
      ))}
      {memory ? <MemoryContext memory={memory} /> : null}
      {rows.length > 0 ? (
        <details className="turn__trace" open aria-label="Trace">
          <summary className="turn__trace-summary">
            <span className="turn__trace-label">Trace</span>
            <span>{describeTrace(summarizeTrace(rows))}</span>
          </summary>
          <TraceList
            rows={rows}
            actions={running || isUnfinished(turn.status) ? actions : undefined}
            halted={isUnfinished(turn.status) ? turn.status : undefined}
          />
        </details>
      ) : null}
      {running && onAnswer ? questions?.map((q) => <QuestionBox key={q.id} id={q.id} question={q.question} onAnswer={onAnswer} />) : null}
      <div className="turn__reply" aria-live={live ? "polite" : undefined}>
        {turn.reasoning && turn.status !== "blocked" ? <ReasoningBox reasoning={turn.reasoning} {...(turn.reasoningMs !== undefined && { ms: turn.reasoningMs })} thinking={running && turn.reasoningMs === undefined && !turn.text} /> : null}
        {/* A canceled turn keeps what it streamed, marked as cut where it stopped. */}
        {turn.text && turn.status !== "blocked" ? <p className={turn.status === "canceled" ? "reply reply--cut" : "reply"}>{turn.text}</p> : null}
        {/* While a call waits for a decision its row asks for it; the reply says nothing more. */}
        {running && !turn.text && !turn.reasoning && !rows.some(isPending) ? <p className="reply reply--waiting">Thinking…</p> : null}
        {running && turn.text ? <span className="caret" aria-hidden="true" /> : null}
        {turn.sources?.length && turn.status !== "blocked" ? <SourceList sources={turn.sources} /> : null}
      </div>
      {(turn.status === "completed" && onFeedback) || onRegenerate ? (
        <div className="turn__footer">
          <TurnFooter status={turn.status} error={turn.error} metadata={metadata} cut={turn.text !== ""} />
          <div className="turn__actions">
            {onRegenerate ? (
              <button type="button" className="turn__tool" onClick={onRegenerate}>
                <RegenerateIcon />
                Regenerate
              </button>
            ) : null}
            {turn.status === "completed" && onFeedback ? <FeedbackBar feedback={feedback} onFeedback={onFeedback} /> : null}
          </div>
        </div>
      ) : onCancel ? (
        <div className="turn__footer">
          <TurnFooter status={turn.status} error={turn.error} metadata={metadata} cut={turn.text !== ""} />
          <div className="turn__actions">
            <CancelSuspended onCancel={onCancel} />
          </div>
        </div>
      ) : (
        <TurnFooter status={turn.status} error={turn.error} metadata={metadata} cut={turn.text !== ""} />
      )}
    </article>
  );
}

/** A question the workflow asks a person: its text, a box for the answer, and Answer (disabled while sending). */
function QuestionBox({ id, question, onAnswer }: { id: string; question: string; onAnswer: (requestId: string, value: string) => Promise<void> }) {
  const [value, setValue] = useState("");
  const [busy, setBusy] = useState(false);
  return (
    <form
      className="turn__question"
      aria-label="Question"
      onSubmit={(event) => {
        event.preventDefault();
        if (busy || value.trim() === "") return;
        setBusy(true);
        void onAnswer(id, value).finally(() => setBusy(false));
      }}
    >
      <label className="turn__question-text" htmlFor={`answer-${id}`}>
        <span className="bubble__label">Question</span> {question}
      </label>
      <div className="turn__question-row">
        <input id={`answer-${id}`} className="turn__question-input" value={value} onChange={(event) => setValue(event.target.value)} placeholder="Your answer" autoFocus />
        <button type="submit" className="button button--primary" disabled={busy || value.trim() === ""}>
          Answer
        </button>
      </div>
    </form>
  );
}

/** Cancel on a suspended turn: ends it without running anything (disabled while the server answers). */
function CancelSuspended({ onCancel }: { onCancel: () => Promise<void> }) {
  const [busy, setBusy] = useState(false);
  return (
    <button
      type="button"
      className="turn__tool"
      disabled={busy}
      onClick={() => {
        setBusy(true);
        void onCancel().finally(() => setBusy(false));
      }}
    >
      Cancel turn
    </button>
  );
}

/** What became of the turn: the model and tokens, or a failure in words with the raw error folded under it. */
function TurnFooter({ status, error, metadata, cut = false }: { status: TurnStatus; error?: TurnError; metadata?: TurnMetadata; cut?: boolean }) {
  switch (status) {
    case "running":
      return null;
    case "failed":
      return (
        <div className="turn__note turn__note--error">
          <p className="turn__error-text">{describeTurnError(error)}</p>
          {error ? (
            <details className="turn__error-detail">
              <summary>Details</summary>
              <code>{`${error.name}: ${error.message}`}</code>
            </details>
          ) : null}
        </div>
      );
    case "blocked":
      // A guardrail's refusal: its name and reason, in place of the reply.
      return <p className="turn__note turn__note--error turn__blocked">{error ? error.message : "Blocked by a guardrail."}</p>;
    case "canceled":
      return <p className="turn__note">{cut ? "Canceled: the reply was cut here." : "Canceled."}</p>;
    case "interrupted":
      return <p className="turn__note">Interrupted: the process running this turn stopped.</p>;
    case "suspended":
      return <p className="turn__note">Suspended until you decide: approve or deny above to resume it, or cancel the turn.</p>;
    case "completed": {
      const parts: string[] = [];
      const agents = answeredBy(metadata);
      if (agents) parts.push(agents);
      if (metadata?.model) parts.push(metadata.model.modelId);
      const tokens = metadata?.usage?.totalTokens;
      if (tokens !== undefined) parts.push(`${tokens.toLocaleString()} tokens`);
      // What the turn cost, when its model's price is known (no cost is shown rather than $0).
      if (metadata?.cost?.usd !== undefined) parts.push(formatUsd(metadata.cost.usd));
      return parts.length > 0 ? <p className="turn__note">{parts.join(" · ")}</p> : null;
    }
    default: {
      const never: never = status;
      return never;
    }
  }
}

/**
 * Which agent of a team answered: `front → editor` when the turn handed off and the editor answered it, the
 * agent and where it handed off to when the next turn answers (`handoff: "next-turn"`), else the agent alone.
 */
export function answeredBy(metadata: TurnMetadata | undefined): string | undefined {
  const agent = metadata?.agent?.id;
  const handoff = metadata?.handoff;
  const list = handoff === undefined ? [] : Array.isArray(handoff) ? handoff : [handoff];
  if (list.length === 0) return agent;
  const chain = [list[0]!.from, ...list.map((record) => record.to)];
  return agent === undefined || chain.at(-1) === agent ? chain.join(" → ") : `${agent}, handed off to ${chain.at(-1)}`;
}

function isPending(row: ChatTraceRow): boolean {
  return row.status === "pending" || row.children.some(isPending);
}
