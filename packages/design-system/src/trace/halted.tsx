import { createContext, useContext } from "react";

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
