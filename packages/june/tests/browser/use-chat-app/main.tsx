// A plain useChat app, as a June user would write one: the AI SDK's own React hook and transport, pointed
// at a June chat handler on another origin (`?api=`), reloaded from `GET /sessions/:id/ui-messages`. The same
// source is built against each AI SDK line (`@ai-sdk/react` 3 with `ai` 6, and 4 with `ai` 7). With `?resume`,
// `useChat({ resume: true })` rejoins a reply still running after a reload (`GET /ui-chat/:id/stream`), and
// Stop asks the server to stop the turn (`POST /ui-chat/:id/stop`): closing the request no longer does.
// Files are attached as useChat sends them (`sendMessage({ text, files })`: data URLs) and shown from their
// `file` parts (after a reload, June's own file route). With `?user=NAME`, the page signs in as NAME by a
// cookie the handler's `authorize` reads, sent with every request (`credentials: "include"`, and images).
import { useChat } from "@ai-sdk/react";
import { DefaultChatTransport, lastAssistantMessageIsCompleteWithApprovalResponses, type UIMessage } from "ai";
import { useEffect, useState } from "react";
import { createRoot } from "react-dom/client";

const params = new URLSearchParams(location.search);
const api = params.get("api") ?? "/api/june";
const chatId = params.get("id") ?? "browser-chat";
const resume = params.has("resume");
const user = params.get("user");
if (user) document.cookie = `june-user=${encodeURIComponent(user)}; path=/; SameSite=Lax`;
const credentials: RequestCredentials | undefined = user ? "include" : undefined;

function Chat({ initial }: { initial: UIMessage[] }) {
  const { messages, sendMessage, regenerate, stop, status, error, addToolApprovalResponse } = useChat({
    id: chatId,
    messages: initial,
    transport: new DefaultChatTransport({ api: `${api}/ui-chat`, ...(credentials && { credentials }) }),
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
    resume,
  });
  const stopReply = async () => {
    if (resume) await fetch(`${api}/ui-chat/${encodeURIComponent(chatId)}/stop`, { method: "POST" });
    await stop();
  };
  const [input, setInput] = useState("");
  const [files, setFiles] = useState<FileList | undefined>();
  const [picker, setPicker] = useState(0);
  return (
    <main data-status={status}>
      <ol>
        {messages.map((message) => (
          <li key={message.id} data-role={message.role} data-id={message.id}>
            {message.parts.map((part, index) => {
              if (part.type === "text") return <span key={index} className="text">{part.text}</span>;
              if (part.type === "file") {
                return part.mediaType.startsWith("image/") ? (
                  <img key={index} className="file" src={part.url} alt={part.filename ?? "image"} data-media-type={part.mediaType} />
                ) : (
                  <a key={index} className="file" href={part.url} data-media-type={part.mediaType}>
                    {part.filename ?? part.mediaType}
                  </a>
                );
              }
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
          void sendMessage(files && files.length > 0 ? { text: input, files } : { text: input });
          setInput("");
          setFiles(undefined);
          setPicker((n) => n + 1);
        }}
      >
        <input aria-label="Message" value={input} onChange={(event) => setInput(event.target.value)} />
        <input key={picker} aria-label="Attach" type="file" multiple onChange={(event) => setFiles(event.currentTarget.files ?? undefined)} />
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
    void fetch(`${api}/sessions/${encodeURIComponent(chatId)}/ui-messages`, credentials && { credentials }).then(async (response) =>
      setInitial(response.ok ? ((await response.json()) as UIMessage[]) : []),
    );
  }, []);
  return initial ? <Chat initial={initial} /> : <p>Loading</p>;
}

createRoot(document.getElementById("root")!).render(<App />);
