import { useEffect, useState } from "react";
import type { StudioClient } from "../api/client";

/** How often a Studio that lost its server asks again. */
const RETRY_MS = 2000;

/**
 * Whether the Studio server answers. Once a request gets no answer, it asks again every two seconds (a
 * cheap list of sessions) until one is answered, then calls `onBack` so the page reloads what it shows.
 */
export function useReachability(client: StudioClient, onBack: () => void): boolean {
  const [reachable, setReachable] = useState(client.isReachable);
  useEffect(() => client.onReachability(setReachable), [client]);
  useEffect(() => {
    if (reachable) return;
    const timer = setInterval(() => {
      client.listSessions().catch(() => {
        // Still down: the next tick asks again.
      });
    }, RETRY_MS);
    return () => {
      clearInterval(timer);
      onBack();
    };
    // onBack is read when the server is back, not a reason to restart the timer.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [client, reachable]);
  return reachable;
}
