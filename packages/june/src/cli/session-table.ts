import { type Cost, formatCost } from "../cost/price.js";
import type { SessionInfo } from "../stores/types.js";
import type { Colors } from "./colors.js";
import { oneLine } from "./render.js";

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 24 * 3600],
  ["month", 30 * 24 * 3600],
  ["week", 7 * 24 * 3600],
  ["day", 24 * 3600],
  ["hour", 3600],
  ["minute", 60],
];

const relative = new Intl.RelativeTimeFormat("en", { numeric: "auto", style: "long" });

/** "just now", "5 minutes ago", "yesterday", "3 weeks ago": how long before `now` an ISO time was. */
export function relativeTime(iso: string, now: number): string {
  const seconds = (new Date(iso).getTime() - now) / 1000;
  if (!Number.isFinite(seconds)) return iso;
  if (Math.abs(seconds) < 45) return "just now";
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return relative.format(Math.round(seconds / size), unit);
  }
  return relative.format(Math.round(seconds / 60), "minute");
}

function corruptNote(corrupt: NonNullable<SessionInfo["corrupt"]>): string {
  return `corrupt journal at line ${corrupt.line}: ${oneLine(corrupt.detail)}`;
}

export interface SessionTableOptions {
  /** A table for a person (header, relative times, titles cut to fit) rather than columns for a script. */
  terminal: boolean;
  colors: Colors;
  /** The terminal's width. */
  columns?: number;
  /** For relative times (default `Date.now()`). */
  now?: number;
  /** The current session, marked with `*` in the table. */
  current?: string;
  /** Sessions with a suspended (or otherwise unfinished durable) turn: `[suspended turn]` before the title on a terminal, a last `suspended` column off one. */
  suspended?: ReadonlySet<string>;
  /** Each session's cost (`sessionCost`): a COST column on a terminal ("$0.0012", "unknown"). */
  costs?: ReadonlyMap<string, Cost | undefined>;
}

/**
 * Sessions as text. On a terminal: a table with a header (ID, UPDATED as a relative time, TURNS, COST when
 * `costs` is given, TITLE),
 * columns aligned, titles cut to the width. Otherwise plain tab-separated columns with no header (id,
 * updated at as an ISO time, turns, title), one session a line, for `cut` and `awk`. A session whose journal is
 * corrupt says where (a fifth column off a terminal).
 */
export function renderSessionTable(sessions: readonly SessionInfo[], options: SessionTableOptions): string {
  if (!options.terminal) {
    return sessions
      .map(
        (s) =>
          `${s.id}\t${s.updatedAt}\t${s.turnCount}\t${oneLine(s.title ?? "")}${s.corrupt ? `\t${corruptNote(s.corrupt)}` : ""}${options.suspended?.has(s.id) ? "\tsuspended" : ""}\n`,
      )
      .join("");
  }
  const now = options.now ?? Date.now();
  const { colors } = options;
  const rows = sessions.map((s) => ({
    mark: s.id === options.current ? "*" : " ",
    id: s.id,
    updated: relativeTime(s.updatedAt, now),
    turns: String(s.turnCount),
    cost: costCell(options.costs?.get(s.id)),
    title: `${options.suspended?.has(s.id) ? "[suspended turn] " : ""}${oneLine(s.title ?? "") || "(no turns yet)"}${s.corrupt ? `  [${corruptNote(s.corrupt)}]` : ""}`,
  }));
  const header = { mark: " ", id: "ID", updated: "UPDATED", turns: "TURNS", cost: "COST", title: "TITLE" };
  const width = (key: "id" | "updated" | "turns" | "cost") => Math.max(header[key].length, ...rows.map((row) => row[key].length));
  const [idWidth, updatedWidth, turnsWidth] = [width("id"), width("updated"), width("turns")];
  const costWidth = options.costs === undefined ? 0 : width("cost") + 2;
  const titleWidth = Math.max(10, (options.columns ?? 100) - (idWidth + updatedWidth + turnsWidth + costWidth + 6) - (options.current === undefined ? 1 : 3));
  const line = (row: typeof header) => {
    const title = row.title.length > titleWidth ? `${row.title.slice(0, titleWidth - 1)}…` : row.title;
    const mark = options.current === undefined ? "" : `${row.mark} `;
    const cost = costWidth === 0 ? "" : `${row.cost.padStart(costWidth - 2)}  `;
    return `${mark}${row.id.padEnd(idWidth)}  ${row.updated.padEnd(updatedWidth)}  ${row.turns.padStart(turnsWidth)}  ${cost}${title}`.trimEnd();
  };
  return [colors.dim(line(header)), ...rows.map(line)].map((text) => `${text}\n`).join("");
}

/** A session's cost in the table: "$0.0012", or "unknown" when its price is not known. */
function costCell(cost: Cost | undefined): string {
  return cost?.usd === undefined ? "unknown" : formatCost(cost);
}
