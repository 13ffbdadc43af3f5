import { useCallback, useEffect, useState } from "react";

/** The session id in the URL hash (`#session=ID`), so a reload or a shared link opens the same session. */
export function readHashSession(hash: string = window.location.hash): string | null {
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  const id = params.get("session");
  return id && id.length > 0 ? id : null;
}

/** The selected session id, kept in the URL hash; the page's query (with its token) is left alone. */
export function useHashSession(): [string | null, (id: string | null) => void] {
  const [id, setId] = useState(() => readHashSession());

  useEffect(() => {
    const onChange = () => setId(readHashSession());
    window.addEventListener("hashchange", onChange);
    return () => window.removeEventListener("hashchange", onChange);
  }, []);

  const select = useCallback((next: string | null) => {
    const hash = next ? `#session=${encodeURIComponent(next)}` : "";
    if (hash === window.location.hash) return;
    // Push, so Back returns to the session before; an empty hash keeps the path and query as they are.
    history.pushState(null, "", hash || `${window.location.pathname}${window.location.search}`);
    setId(next);
  }, []);

  return [id, select];
}
