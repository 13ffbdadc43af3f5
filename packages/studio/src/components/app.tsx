import { useCallback, useEffect, useState } from "react";
import { UNREACHABLE, type StudioClient } from "../api/client";
import { ChatController } from "../state/chat-controller";
import { message } from "../state/message";
import { SessionsController } from "../state/sessions-controller";
import { useChatSession } from "../state/use-chat-session";
import { useHashSession } from "../state/use-hash-session";
import { useReachability } from "../state/use-reachability";
import { useSessions } from "../state/use-sessions";
import { ChatPane } from "./chat-pane";
import { sessionCostLabel } from "./session-cost";
import { Sidebar } from "./sidebar";
import { ScheduleList } from "./schedule-list";
import { MemoryPanel } from "./memory-panel";

/** June Studio: the sessions sidebar and the open session's chat pane. */
export function App({ client }: { client: StudioClient }) {
  // The page's state lives in two controllers, made once per client; the hooks below only subscribe.
  const [controllers] = useState(() => {
    const sessions = new SessionsController({ client });
    return { sessions, chat: new ChatController({ client, onSessionsChanged: () => void sessions.refresh() }) };
  });
  useEffect(() => () => controllers.chat.dispose(), [controllers]);
  const sessions = useSessions(controllers.sessions);
  const [sessionId, selectSession] = useHashSession();
  const chat = useChatSession(controllers.chat, sessionId);
  const [appError, setAppError] = useState<string | null>(null);
  // On a narrow screen the sidebar is a drawer over the chat, closed until asked for.
  const [sidebarOpen, setSidebarOpen] = useState(false);
  const reachable = useReachability(client, () => {
    // Back: read again what the page shows, and drop the errors the outage left.
    setAppError(null);
    chat.dismissError();
    void sessions.refresh();
    controllers.chat.reload();
  });
  const current = sessions.sessions.find((session) => session.id === sessionId);

  useEffect(() => {
    document.title = current?.title ? `${current.title} · June Studio` : "June Studio";
  }, [current?.title]);

  const guard = useCallback(
    (work: () => Promise<void>) => () => {
      setAppError(null);
      work().catch((caught) => setAppError(message(caught)));
    },
    [],
  );

  // A new session is made by its first message (sendFirst), so none is ever left empty.
  const newSession = () => {
    setAppError(null);
    setSidebarOpen(false);
    selectSession(null);
  };
  const select = (id: string) => {
    setSidebarOpen(false);
    selectSession(id);
  };

  const sendFirst = async (input: string, files: File[]) => {
    setAppError(null);
    const session = await sessions.create();
    chat.queue(session.id, input, files);
    selectSession(session.id);
  };

  const deleteSession = (id: string) =>
    guard(async () => {
      if (id === sessionId) selectSession(null);
      await sessions.remove(id);
    })();

  const shown = chat.error ?? appError ?? (sessions.loaded ? sessions.error : null);
  // While the server is away, one line says so (and that Studio retries); the errors it caused wait.
  const error = !reachable ? UNREACHABLE : shown === UNREACHABLE ? null : shown;

  return (
    <div className={sidebarOpen ? "app app--sidebar-open" : "app"}>
      <Sidebar
        sessions={sessions.sessions}
        loaded={sessions.loaded}
        failed={sessions.error !== null}
        selectedId={sessionId}
        selectedCost={chat.detail && chat.detail.id === sessionId ? sessionCostLabel(chat.detail.cost) : undefined}
        onSelect={select}
        onNew={newSession}
        onDelete={deleteSession}
        onRename={sessions.rename}
        onClose={() => setSidebarOpen(false)}
        footer={
          <>
            <MemoryPanel client={client} sessionOwner={current?.owner} refreshKey={`${chat.detail?.id}:${chat.detail?.turns.map((turn) => turn.status).join()}:${chat.live?.status ?? ""}`} />
            <ScheduleList client={client} onSelect={select} />
          </>
        }
      />
      {sidebarOpen ? <div className="app__scrim" onClick={() => setSidebarOpen(false)} aria-hidden="true" /> : null}
      <ChatPane
        chat={chat}
        sessionId={sessionId}
        title={current?.title}
        error={error}
        offline={!reachable}
        onOpenSidebar={() => setSidebarOpen(true)}
        onDismissError={() => {
          chat.dismissError();
          setAppError(null);
        }}
        onSendFirst={sendFirst}
      />
    </div>
  );
}
