import { resolve as resolvePath } from "node:path";
import type { CommandContext } from "citty";
import { isStudioToken, newStudioToken, serveStudio, STUDIO_TOKEN_RULE } from "../../server/serve-studio.js";
import { optionalModuleArg, parsePort } from "../args.js";
import type { CliIO } from "../io.js";
import { CliUsageError } from "../errors.js";
import { DEFAULT_STORE_DIR, resolveChat } from "../resolve-chat.js";
import { readStudioState, studioStatePath, writeStudioState } from "../studio-state.js";
import { Screen } from "../screen.js";
import type { studioArgs } from "./studio.js";

/** Runs `june studio [file]` (see `studioCommand`) until Ctrl-C and returns the exit code. */
export async function runStudio(io: CliIO, { args }: CommandContext<typeof studioArgs>): Promise<number> {
  const file = optionalModuleArg(args._, "studio");
  const port = parsePort(args.port);
  const { chat, label, storeDir } = await resolveChat({
    io,
    file,
    model: args.model,
    baseUrl: args["base-url"],
    store: args.store,
    command: "studio",
  });
  const screen = new Screen(io, { progress: false });
  const stopped = new AbortController();
  // The token and port are kept beside the store, so a tab left open keeps working after a restart.
  const statePath = studioStatePath(resolvePath(io.cwd, storeDir ?? args.store ?? DEFAULT_STORE_DIR));
  const kept = readStudioState(statePath);
  if (typeof kept === "object" && "unreadable" in kept) {
    screen.note(screen.err.dim(`${statePath} is unreadable (${kept.unreadable}): Studio starts with a new token`));
  }
  const keptState = typeof kept === "object" && "token" in kept ? kept : undefined;
  const given = args.token ?? io.env.JUNE_STUDIO_TOKEN;
  if (given !== undefined && !isStudioToken(given)) {
    throw new CliUsageError(`${args.token !== undefined ? "--token" : "JUNE_STUDIO_TOKEN"} must be ${STUDIO_TOKEN_RULE}`);
  }
  const token = given ?? keptState?.token ?? newStudioToken();
  const host = args.host ?? "127.0.0.1";
  let studio;
  try {
    studio = await serveStudio({ chat, host, port: port ?? keptState?.port ?? 0, token, signal: stopped.signal });
  } catch (error) {
    // The port the last run had is taken now: a free one (an open tab then needs the new address).
    if (port !== undefined || keptState === undefined || (error as NodeJS.ErrnoException).code !== "EADDRINUSE") throw error;
    screen.note(screen.err.dim(`port ${keptState.port} (the last run's) is taken: listening on another`));
    studio = await serveStudio({ chat, host, port: 0, token, signal: stopped.signal });
  }
  writeStudioState(statePath, { token: given === undefined ? token : (keptState?.token ?? newStudioToken()), port: studio.port });
  // The URL carries the token, which would read as a credential: the user must see it whole (`stderrVerbatim`).
  const where = `June Studio for ${label}: ${screen.err.cyan(studio.url)}`;
  io.stderrVerbatim.write(`${where}\n`);
  screen.note(screen.err.dim("Ctrl-C stops it"));
  if (args.open) io.openUrl?.(studio.url);
  await new Promise<void>((resolve) => {
    const stop = io.onInterrupt(() => {
      stop();
      resolve();
      return true;
    });
  });
  stopped.abort();
  await studio.close();
  return 0;
}
