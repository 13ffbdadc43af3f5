import { useCallback, useEffect, useState } from "react";
import type { StudioClient } from "../api/client";
import { useChatSession } from "../state/use-chat-session";
import { useHashSession } from "../state/use-hash-session";
import { message, useSessions } from "../state/use-sessions";
import { ChatPane } from "./chat-pane";
import { Sidebar } from "./sidebar";

/** June Studio: the sessions sidebar and the open session's chat pane. */
export function App({ client }: { client: StudioClient }) {
  const sessions = useSessions(client);
  const [sessionId, selectSession] = useHashSession();
  const chat = useChatSession(client, sessionId, sessions.refresh);
  const [appError, setAppError] = useState<string | null>(null);
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

  const newSession = guard(async () => {
    const session = await sessions.create();
    selectSession(session.id);
  });

  const sendFirst = async (input: string) => {
    setAppError(null);
    const session = await sessions.create();
    chat.queue(session.id, input);
    selectSession(session.id);
  };

  const deleteSession = (id: string) =>
    guard(async () => {
      if (id === sessionId) selectSession(null);
      await sessions.remove(id);
    })();

  const error = chat.error ?? appError ?? (sessions.loaded ? sessions.error : null);

  return (
    <div className="app">
      <Sidebar
        sessions={sessions.sessions}
        loaded={sessions.loaded}
        failed={sessions.error !== null}
        selectedId={sessionId}
        onSelect={selectSession}
        onNew={newSession}
        onDelete={deleteSession}
      />
      <ChatPane
        chat={chat}
        sessionId={sessionId}
        title={current?.title}
        error={error}
        onDismissError={() => {
          chat.dismissError();
          setAppError(null);
        }}
        onSendFirst={sendFirst}
      />
    </div>
  );
}
