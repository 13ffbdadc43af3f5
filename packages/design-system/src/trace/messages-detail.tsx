import type { ChatTraceMessage } from "./types.js";

const ROLE_LABELS: Record<ChatTraceMessage["role"], string> = {
  system: "System",
  user: "User",
  assistant: "Assistant",
  tool: "Tool",
};

export interface MessagesDetailProps {
  label: string;
  messages: readonly ChatTraceMessage[];
  /** How many earlier messages the excerpt leaves out. */
  omitted?: number;
  open?: boolean;
}

/**
 * A model call's prompt or response: one line (how many messages, and the last one's start) that opens to
 * each message with its role. The messages arrive as bounded, redacted excerpts (`projectChatTrace` made
 * them); nothing here sees more than the row carries.
 */
export function MessagesDetail({ label, messages, omitted = 0, open }: MessagesDetailProps) {
  const last = messages.at(-1);
  const count = messages.length + omitted;
  const preview = `${count} message${count === 1 ? "" : "s"}${last ? ` · ${ROLE_LABELS[last.role]}: ${last.text}` : ""}`;
  return (
    <div className="jt-io__line" data-messages={label.toLowerCase()}>
      <dt>{label}</dt>
      <dd>
        <details className="jt-more" open={open}>
          <summary className="jt-more__summary">
            <code className="jt-more__preview">{preview}</code>
          </summary>
          <ol className="jt-messages">
            {omitted > 0 ? (
              <li className="jt-messages__omitted">
                {`${omitted} earlier message${omitted === 1 ? "" : "s"} not shown`}
              </li>
            ) : null}
            {messages.map((message, index) => (
              <li className="jt-message" key={index} data-role={message.role}>
                <span className="jt-message__role">{ROLE_LABELS[message.role] ?? message.role}</span>
                <pre className="jt-message__text">{message.text}</pre>
              </li>
            ))}
          </ol>
        </details>
      </dd>
    </div>
  );
}
