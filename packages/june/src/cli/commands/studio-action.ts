import type { CommandContext } from "citty";
import { serveStudio } from "../../server/serve-studio.js";
import { optionalModuleArg, parsePort } from "../args.js";
import type { CliIO } from "../io.js";
import { resolveChat } from "../resolve-chat.js";
import { Screen } from "../screen.js";
import type { studioArgs } from "./studio.js";

/** Runs `june studio [file]` (see `studioCommand`) until Ctrl-C and returns the exit code. */
export async function runStudio(io: CliIO, { args }: CommandContext<typeof studioArgs>): Promise<number> {
  const file = optionalModuleArg(args._, "studio");
  const port = parsePort(args.port);
  const { chat, label } = await resolveChat({
    io,
    file,
    model: args.model,
    baseUrl: args["base-url"],
    store: args.store,
    command: "studio",
  });
  const screen = new Screen(io, { progress: false });
  const stopped = new AbortController();
  const studio = await serveStudio({ chat, host: args.host ?? "127.0.0.1", port, signal: stopped.signal });
  screen.note(`June Studio for ${label}: ${screen.err.cyan(studio.url)}`);
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
