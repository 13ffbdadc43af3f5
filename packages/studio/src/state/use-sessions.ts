import { useCallback, useEffect, useState } from "react";
import type { StudioClient } from "../api/client";
import type { SessionInfo } from "../api/types";

export interface SessionsState {
  sessions: SessionInfo[];
  loaded: boolean;
  error: string | null;
  refresh(): Promise<void>;
  create(): Promise<SessionInfo>;
  remove(id: string): Promise<void>;
}

/** The sessions sidebar's data: the chat's sessions, newest first. */
export function useSessions(client: StudioClient): SessionsState {
  const [sessions, setSessions] = useState<SessionInfo[]>([]);
  const [loaded, setLoaded] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const refresh = useCallback(async () => {
    try {
      setSessions(await client.listSessions());
      setError(null);
    } catch (caught) {
      setError(message(caught));
    } finally {
      setLoaded(true);
    }
  }, [client]);

  useEffect(() => {
    void refresh();
  }, [refresh]);

  const create = useCallback(async () => {
    const session = await client.createSession();
    await refresh();
    return session;
  }, [client, refresh]);

  const remove = useCallback(
    async (id: string) => {
      setSessions((current) => current.filter((session) => session.id !== id));
      try {
        await client.deleteSession(id);
      } finally {
        await refresh();
      }
    },
    [client, refresh],
  );

  return { sessions, loaded, error, refresh, create, remove };
}

export function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
