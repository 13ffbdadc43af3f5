import { useEffect, useState } from "react";
import type { StudioClient } from "../api/client";
import type { ScheduleView } from "../api/types";

/** When a schedule runs next, as a person reads it ("Dec 8, 09:00"). */
function when(iso: string | undefined): string {
  if (iso === undefined) return "—";
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? "—" : date.toLocaleString(undefined, { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" });
}

/**
 * The chat's schedules (read only): id, cron (and zone) or the one-off time, next run and session. Shown only
 * when the chat has a queue; a schedule's session opens like any other (a `"new"` one makes a session per run,
 * listed with the others once it ran).
 */
export function ScheduleList({ client, onSelect }: { client: StudioClient; onSelect(id: string): void }) {
  const [schedules, setSchedules] = useState<ScheduleView[] | undefined>(undefined);
  useEffect(() => {
    let live = true;
    client.listSchedules().then(
      (listed) => live && setSchedules(listed),
      () => live && setSchedules(undefined),
    );
    return () => {
      live = false;
    };
  }, [client]);
  if (!schedules) return null;
  return (
    <section className="schedule-list" aria-label="Schedules">
      <h2 className="schedule-list__title">Schedules</h2>
      {schedules.length === 0 ? <p className="sidebar__empty">No schedules.</p> : null}
      <ul>
        {schedules.map((schedule) => (
          <li key={schedule.id} className="schedule-list__item" data-schedule-id={schedule.id}>
            <span className="schedule-list__id">{schedule.id}</span>
            <span className="schedule-list__when">
              {schedule.kind === "cron" ? `${schedule.cron} (${schedule.timezone})` : `once at ${when(schedule.runAt)}`}
            </span>
            <span className="schedule-list__next">next: {when(schedule.nextRunAt)}</span>
            {schedule.session === "new" ? (
              <span className="schedule-list__new">a new session each run</span>
            ) : (
              <button type="button" className="schedule-list__session" onClick={() => onSelect(schedule.session)}>
                session {schedule.session.slice(0, 8)}
              </button>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
