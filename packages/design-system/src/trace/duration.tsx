import { useEffect, useState } from "react";
import { useHalt } from "./halted.js";
import type { ChatTraceRow } from "./types.js";

/** "340 ms", "1.2 s", "2 min 5 s": a duration for a person. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return "";
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.round((ms % 60_000) / 1000);
  return seconds === 0 ? `${minutes} min` : `${minutes} min ${seconds} s`;
}

/** The current time, ticking every `ms` while `active`. */
function useNow(active: boolean, ms = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(timer);
  }, [active, ms]);
  return now;
}

/**
 * How long a row took (once it ended), or has been running (ticking each second). Nothing for a row with
 * no start time, one waiting for a decision (its wait is not work), or one its turn left halted (nothing
 * runs it).
 */
export function RowDuration({ row }: { row: ChatTraceRow }) {
  const halted = useHalt() !== undefined;
  const running = !halted && row.status === "running" && row.startedAt !== undefined && row.endedAt === undefined;
  const now = useNow(running);
  if (row.startedAt === undefined) return null;
  if (row.endedAt === undefined && !running) return null;
  const text = formatDuration((row.endedAt ?? now) - row.startedAt);
  if (!text) return null;
  return (
    <span className="jt-row__duration" data-running={running ? "true" : undefined} title={running ? "Running for" : "Took"}>
      {text}
    </span>
  );
}
