import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
import type { CasesFile, CasesFilter, TurnRecord } from "../api/types";
import { saveFile } from "./save-file";

export interface ExportCasesMenuProps {
  /** The session's journaled turns: the menu counts the completed ones, and those rated up or down. */
  turns: readonly TurnRecord[];
  /** Fetches the session's eval cases as a JSONL file. */
  onExport(filter: CasesFilter): Promise<CasesFile>;
}

const CHOICES: readonly { filter: CasesFilter; label: string }[] = [
  { filter: "all", label: "All completed turns" },
  { filter: "up", label: "Thumbs-up only" },
  { filter: "down", label: "Thumbs-down only" },
];

/** How many cases each filter exports, as the server counts them: up above 0.5, down below. */
export function countCases(turns: readonly TurnRecord[]): Record<CasesFilter, number> {
  const counts: Record<CasesFilter, number> = { all: 0, up: 0, down: 0 };
  for (const turn of turns) {
    if (turn.status !== "completed") continue;
    counts.all++;
    if (turn.feedback && turn.feedback.score > 0.5) counts.up++;
    if (turn.feedback && turn.feedback.score < 0.5) counts.down++;
  }
  return counts;
}

/**
 * "Export eval cases" in the session's header: a small menu of what to export (every completed turn, or
 * the thumbs-up or thumbs-down ones, each with its count), which downloads `<session>-cases.jsonl`.
 */
export function ExportCasesMenu({ turns, onExport }: ExportCasesMenuProps) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const root = useRef<HTMLDivElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const menuId = useId();
  const counts = countCases(turns);
  const empty = counts.all === 0;

  // Focus the first item on open; close on a click elsewhere.
  useEffect(() => {
    if (!open) return;
    items()[0]?.focus();
    const onPointerDown = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener("pointerdown", onPointerDown);
    return () => document.removeEventListener("pointerdown", onPointerDown);
  }, [open]);

  useEffect(() => {
    if (!error) return;
    const timer = setTimeout(() => setError(null), 6000);
    return () => clearTimeout(timer);
  }, [error]);

  function items(): HTMLButtonElement[] {
    return Array.from(menu.current?.querySelectorAll<HTMLButtonElement>('[role="menuitem"]:not(:disabled)') ?? []);
  }

  function close(refocus: boolean) {
    setOpen(false);
    if (refocus) trigger.current?.focus();
  }

  function onMenuKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const list = items();
    const at = list.indexOf(document.activeElement as HTMLButtonElement);
    switch (event.key) {
      case "Escape":
        event.preventDefault();
        close(true);
        break;
      case "Tab":
        close(false);
        break;
      case "ArrowDown":
      case "ArrowUp": {
        event.preventDefault();
        if (list.length === 0) break;
        const step = event.key === "ArrowDown" ? 1 : -1;
        list[(at + step + list.length) % list.length]?.focus();
        break;
      }
      case "Home":
      case "End":
        event.preventDefault();
        (event.key === "Home" ? list[0] : list.at(-1))?.focus();
        break;
      default:
        break;
    }
  }

  async function choose(filter: CasesFilter) {
    close(true);
    setBusy(true);
    setError(null);
    try {
      saveFile(await onExport(filter));
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : String(caught));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="export" ref={root}>
      <button
        ref={trigger}
        type="button"
        className="export__trigger"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        disabled={busy || empty}
        title={empty ? "No completed turns to export yet" : "Download this session's turns as eval cases (JSONL)"}
        onClick={() => (open ? close(false) : setOpen(true))}
        onKeyDown={(event) => {
          if (event.key === "ArrowDown" && !open) {
            event.preventDefault();
            setOpen(true);
          }
        }}
      >
        <DownloadIcon />
        <span>{busy ? "Exporting…" : "Export eval cases"}</span>
        <ChevronIcon />
      </button>
      {open ? (
        <div className="export__menu" role="menu" id={menuId} aria-label="Export eval cases" ref={menu} onKeyDown={onMenuKeyDown}>
          <p className="export__caption" aria-hidden="true">
            Eval cases · JSONL
          </p>
          {CHOICES.map(({ filter, label }) => (
            <button
              key={filter}
              type="button"
              role="menuitem"
              className="export__item"
              data-filter={filter}
              disabled={counts[filter] === 0}
              onClick={() => void choose(filter)}
            >
              <span>{label}</span>
              <span className="export__count">{counts[filter]}</span>
            </button>
          ))}
        </div>
      ) : null}
      {error ? (
        <p className="export__error" role="alert">
          Export failed: {error}
        </p>
      ) : null}
    </div>
  );
}

function DownloadIcon() {
  return (
    <svg viewBox="0 0 16 16" width="14" height="14" fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
      <path d="M8 2.5v7.5M4.8 7 8 10.2 11.2 7M3 13h10" />
    </svg>
  );
}

function ChevronIcon() {
  return (
    <svg className="export__chevron" viewBox="0 0 16 16" width="12" height="12" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
      <path d="M4.5 6.5 8 10l3.5-3.5" />
    </svg>
  );
}
