import { useEffect, useMemo, useSyncExternalStore } from "react";
import type { SessionInfo } from "../api/types";
import type { SessionsController, SessionsSnapshot } from "./sessions-controller";

export interface SessionsState extends SessionsSnapshot {
  refresh(): Promise<void>;
  create(): Promise<SessionInfo>;
  remove(id: string): Promise<void>;
  rename(id: string, title: string): Promise<void>;
}

/** Subscribes a component to the sessions sidebar's controller, and lists the sessions once it mounts. */
export function useSessions(controller: SessionsController): SessionsState {
  useEffect(() => void controller.refresh(), [controller]);
  const snapshot = useSyncExternalStore(controller.subscribe, controller.getSnapshot);
  return useMemo(
    () => ({
      ...snapshot,
      refresh: () => controller.refresh(),
      create: () => controller.create(),
      remove: (id) => controller.remove(id),
      rename: (id, title) => controller.rename(id, title),
    }),
    [controller, snapshot],
  );
}
