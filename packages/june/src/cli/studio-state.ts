import { randomBytes } from "node:crypto";
import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { isStudioToken } from "../server/serve-studio.js";

/**
 * What `june studio` keeps between its runs for one store, so a tab left open on the old address still works
 * after a restart: the token it printed and the port it listened on. A file of the user's own (mode 0600),
 * next to the store: `<store>.studio.json` (`.june/chat.studio.json` for the default store).
 */
export interface StudioState {
  token: string;
  port: number;
}

/** The state file of a store folder. */
export function studioStatePath(storeDir: string): string {
  return `${storeDir.replace(/[\\/]+$/, "")}.studio.json`;
}

/**
 * The kept state, or why there is none: `"none"` when no file exists yet, `{ unreadable }` when one exists but
 * does not hold a token and a port (it is then replaced, and the caller says so).
 */
export function readStudioState(path: string): StudioState | "none" | { unreadable: string } {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return "none";
    return { unreadable: (error as Error).message };
  }
  try {
    const value = JSON.parse(text) as Partial<StudioState>;
    if (isStudioToken(value.token) && Number.isInteger(value.port) && value.port! > 0 && value.port! < 65536) {
      return { token: value.token, port: value.port! };
    }
    return { unreadable: "it holds no token and port" };
  } catch {
    return { unreadable: "it is not JSON" };
  }
}

/** Writes the state whole (a temporary file renamed over it), readable by its owner alone. */
export function writeStudioState(path: string, state: StudioState): void {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${randomBytes(6).toString("hex")}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(state)}\n`, { mode: 0o600 });
  chmodSync(temporary, 0o600); // an existing file keeps its mode through writeFileSync
  renameSync(temporary, path);
}
