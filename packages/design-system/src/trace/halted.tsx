import { createContext, useContext } from "react";
import type { ChatTraceRow } from "./types.js";

/**
 * Why a trace's turn stopped with rows still running: `suspended` (a durable turn waits, its process gone
 * or not, to be resumed) or `interrupted` (its process stopped mid-turn). Those rows did not finish, but
 * nothing runs them either: they read "Suspended" or "Interrupted", never "Running", and their time does
 * not tick.
 */
export type TraceHalt = "suspended" | "interrupted";

const HaltContext = createContext<TraceHalt | undefined>(undefined);

/** Draws its rows, nested ones included, as halted. */
export const HaltProvider = HaltContext.Provider;

/** The halt the rows being drawn are under, if any. */
export function useHalt(): TraceHalt | undefined {
  return useContext(HaltContext);
}

/**
 * A row's title under a halt: one still running is named with what became of it ("reply suspended",
 * "gpt-5-mini interrupted"), not as under way ("Running reply"); any other row keeps its title.
 */
export function haltedTitle(row: ChatTraceRow, halt: TraceHalt | undefined): string {
  if (!halt || row.status !== "running") return row.title;
  switch (row.kind) {
    case "step":
      return `${row.stepId} ${halt}`;
    case "model":
      return `${row.model.modelId} ${halt}`;
    case "tool":
      return `${row.toolName} ${halt}`;
    default:
      return row.title;
  }
}
