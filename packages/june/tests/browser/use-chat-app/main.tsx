// A plain useChat app, as a June user would write one: the AI SDK's own React hook and transport, pointed
// at a June chat handler on another origin (`?api=`), reloaded from `GET /sessions/:id/ui-messages`. The same
// source is built against each AI SDK line (`@ai-sdk/react` 3 with `ai` 6, and 4 with `ai` 7). With `?resume`,
// `useChat({ resume: true })` rejoins a reply still running after a reload (`GET /ui-chat/:id/stream`), and
// Stop asks the server to stop the turn (`POST /ui-chat/:id/stop`): closing the request no longer does.
import { useChat } from "@ai-sdk/react";
import { DefaultChatTransport, lastAssistantMessageIsCompleteWithApprovalResponses, type UIMessage } from "ai";
import { useEffect, useState } from "react";
import { createRoot } from "react-dom/client";

const params = new URLSearchParams(location.search);
const api = params.get("api") ?? "/api/june";
const chatId = params.get("id") ?? "browser-chat";
const resume = params.has("resume");

function Chat({ initial }: { initial: UIMessage[] }) {
  const { messages, sendMessage, regenerate, stop, status, error, addToolApprovalResponse } = useChat({
    id: chatId,
    messages: initial,
    transport: new DefaultChatTransport({ api: `${api}/ui-chat` }),
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
    resume,
  });
  const stopReply = async () => {
    if (resume) await fetch(`${api}/ui-chat/${encodeURIComponent(chatId)}/stop`, { method: "POST" });
    await stop();
  };
  const [input, setInput] = useState("");
  return (
    <main data-status={status}>
      <ol>
        {messages.map((message) => (
          <li key={message.id} data-role={message.role} data-id={message.id}>
            {message.parts.map((part, index) => {
              if (part.type === "text") return <span key={index} className="text">{part.text}</span>;
              if (part.type === "dynamic-tool") {
                return (
                  <span key={index} className="tool" data-state={part.state}>
                    {part.toolName}
                    {part.state === "approval-requested" && (
                      <>
                        <button onClick={() => addToolApprovalResponse({ id: part.approval.id, approved: true })}>Approve</button>
                        <button onClick={() => addToolApprovalResponse({ id: part.approval.id, approved: false, reason: "no" })}>Deny</button>
                      </>
                    )}
                  </span>
                );
              }
              return null;
            })}
          </li>
        ))}
      </ol>
      {error && <p className="error">{error.message}</p>}
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void sendMessage({ text: input });
          setInput("");
        }}
      >
        <input aria-label="Message" value={input} onChange={(event) => setInput(event.target.value)} />
        <button type="submit">Send</button>
      </form>
      <button onClick={() => void regenerate()}>Regenerate</button>
      <button onClick={() => void stopReply()}>Stop</button>
    </main>
  );
}

function App() {
  const [initial, setInitial] = useState<UIMessage[] | undefined>();
  useEffect(() => {
    void fetch(`${api}/sessions/${encodeURIComponent(chatId)}/ui-messages`).then(async (response) =>
      setInitial(response.ok ? ((await response.json()) as UIMessage[]) : []),
    );
  }, []);
  return initial ? <Chat initial={initial} /> : <p>Loading</p>;
}

createRoot(document.getElementById("root")!).render(<App />);
