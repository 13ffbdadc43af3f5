import { useEffect, useRef } from "react";
import type { ChatSession } from "../state/use-chat-session";
import { summarizeTrace, type TraceActions } from "june-design-system";
import { Composer } from "./composer";
import { ErrorBanner } from "./error-banner";
import { ExportCasesMenu } from "./export-cases-menu";
import { TurnView } from "./turn-view";
import { pendingOf, suspendedRows } from "../state/suspended-rows";

export interface ChatPaneProps {
  chat: ChatSession;
  sessionId: string | null;
  title?: string;
  error: string | null;
  /** The server does not answer: the banner says so and cannot be dismissed. */
  offline?: boolean;
  /** Opens the sessions drawer (narrow screens). */
  onOpenSidebar?(): void;
  onDismissError(): void;
  /** With no session open, the first message makes one. */
  onSendFirst(input: string, files: File[]): Promise<void>;
}

/** The open session: its turns, each with its trace, and the composer; its header exports its eval cases. */
export function ChatPane({ chat, sessionId, title, error, offline = false, onOpenSidebar, onDismissError, onSendFirst }: ChatPaneProps) {
  const { detail, live, traces, thoughts } = chat;
  const running = live?.status === "running";
  const waiting = running && summarizeTrace(live.rows).status === "pending";
  const scroller = useRef<HTMLDivElement>(null);
  const stick = useRef(true);

  const actions: TraceActions = { approve: chat.approve, deny: chat.deny, defaultDenyReason: "Denied in June Studio" };
  const regenerate = (turnId: string) => {
    stick.current = true;
    return chat.regenerate(turnId);
  };
  const edit = (turnId: string, input: string) => {
    stick.current = true;
    return chat.edit(turnId, input);
  };

  // Follow the reply as it is written, unless the reader scrolled up.
  useEffect(() => {
    const element = scroller.current;
    if (element && stick.current) element.scrollTop = element.scrollHeight;
  });

  // A regenerated or edited turn takes the place of a turn and hides what followed it until it is journaled.
  const all = detail?.turns ?? [];
  const replaced = live?.replaces ? all.findIndex((record) => record.id === live.replaces) : -1;
  const records = replaced >= 0 && !all.some((record) => record.id === live?.turnId) ? all.slice(0, replaced) : all;
  const liveIsNew = live !== null && !records.some((record) => record.id === live.turnId);
  const last = records.at(-1);
  const idle = !running && !liveIsNew;
  /**
   * A parked durable turn's requests, with Approve / Deny that resume it and Cancel that ends it (none while
   * another turn runs).
   */
  const parked = (record: (typeof records)[number]) => {
    const pending = pendingOf(detail, record);
    if (pending.length === 0) return undefined;
    const decide: TraceActions = {
      approve: (approvalId, input) => {
        stick.current = true;
        return chat.decideSuspended(record.id, approvalId, { approve: true, ...(input !== undefined && { input }) });
      },
      deny: (approvalId, reason) => {
        stick.current = true;
        return chat.decideSuspended(record.id, approvalId, { approve: false, reason });
      },
      defaultDenyReason: actions.defaultDenyReason,
    };
    return {
      rows: suspendedRows(traces[record.id] ?? [], pending, detail?.pendingRows?.[record.id]),
      actions: running ? undefined : decide,
      onCancel: running ? undefined : () => chat.cancelSuspended(record.id),
    };
  };
  const branchOf = (id: string) => {
    const alternatives = chat.branches[id];
    const index = alternatives?.indexOf(id) ?? -1;
    if (!alternatives || index < 0 || running) return undefined;
    return { index, count: alternatives.length, onSelect: (next: number) => void chat.checkout(alternatives[next]!) };
  };

  return (
    <main className="chat" aria-label="Chat">
      <header className="chat__header">
        {onOpenSidebar ? (
          <button type="button" className="chat__menu" onClick={onOpenSidebar} aria-label="Show sessions">
            <svg viewBox="0 0 16 16" width="16" height="16" fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" aria-hidden="true">
              <path d="M2.5 4h11M2.5 8h11M2.5 12h11" />
            </svg>
          </button>
        ) : null}
        <h1 className="chat__title">{sessionId ? title || "New session" : "June Studio"}</h1>
        {running ? <span className="chat__status">{waiting ? "Waiting for you" : "Replying…"}</span> : null}
        {sessionId && detail ? (
          <div className="chat__actions">
            <ExportCasesMenu turns={records} onExport={chat.exportCases} />
          </div>
        ) : null}
      </header>
      {error ? <ErrorBanner message={error} onDismiss={offline ? undefined : onDismissError} tone={offline ? "offline" : "error"} /> : null}
      <div
        className="chat__scroll"
        ref={scroller}
        onScroll={(event) => {
          const element = event.currentTarget;
          stick.current = element.scrollHeight - element.scrollTop - element.clientHeight < 48;
        }}
      >
        <div className="chat__turns">
          {!sessionId ? (
            <div className="chat__empty">
              <p className="chat__empty-title">Start a conversation</p>
              <p>Send a message to open a new session, or pick one from the sidebar.</p>
            </div>
          ) : chat.loading ? (
            <p className="chat__loading">Loading session…</p>
          ) : records.length === 0 && !live ? (
            <div className="chat__empty">
              <p className="chat__empty-title">No turns yet</p>
              <p>Send a message to start. Tool calls, steps and approvals will show under each reply.</p>
            </div>
          ) : null}
          {records.map((record) => {
            if (live && live.turnId === record.id) return <TurnView key={live.key} turn={live} rows={live.rows} actions={actions} questions={live.questions} onAnswer={chat.answer} live />;
            const waiting = parked(record);
            return (
              <TurnView
                key={record.id}
                turn={{
                  ...record,
                  files: chat.filesOf(record),
                  steers: record.steers.map((steer) => steer.input),
                  text: record.text ?? "",
                  ...(thoughts[record.id] && { reasoning: record.reasoning ?? thoughts[record.id]!.reasoning, reasoningMs: thoughts[record.id]!.ms }),
                }}
                rows={waiting?.rows ?? traces[record.id] ?? []}
                actions={waiting?.actions}
                onCancel={waiting?.onCancel}
                metadata={record.metadata}
                memory={record.context?.memory}
                feedback={record.feedback}
                onFeedback={record.status === "completed" ? (feedback) => chat.feedback(record.id, feedback) : undefined}
                onRegenerate={idle && !waiting && record === last && record.status !== "running" ? () => void regenerate(record.id) : undefined}
                onEdit={idle && !waiting && record === last && record.status !== "running" ? (input) => edit(record.id, input) : undefined}
                branch={branchOf(record.id)}
              />
            );
          })}
          {live && liveIsNew ? <TurnView key={live.key} turn={live} rows={live.rows} actions={actions} questions={live.questions} onAnswer={chat.answer} live /> : null}
        </div>
      </div>
      <Composer
        running={running}
        canSteer={running && live?.turnId !== undefined}
        onSend={(input, files) => {
          stick.current = true;
          return sessionId ? chat.send(input, files) : onSendFirst(input, files);
        }}
        onSteer={chat.steer}
        onCancel={chat.cancel}
      />
    </main>
  );
}
