import { defineCommand } from "citty";
import { serveStudio } from "../../server/serve-studio.js";
import { looksLikeModule, parsePort } from "../args.js";
import { CliUsageError } from "../errors.js";
import type { CliIO } from "../io.js";
import { resolveChat } from "../resolve-chat.js";
import { Screen } from "../screen.js";
import { modelArgs, storeArg } from "./shared-args.js";

/** `june studio [file]`: serves June Studio for one chat until Ctrl-C. */
export function studioCommand(io: CliIO) {
  return defineCommand({
    meta: { name: "studio", description: "Serve June Studio (a local web app) for a chat until Ctrl-C" },
    args: {
      file: {
        type: "positional",
        required: false,
        description: "A chat module (.ts, .tsx, .js, .mjs) whose default export is a Chat, a Responder, or a function ({ model }) => either",
      },
      ...modelArgs,
      ...storeArg,
      port: { type: "string", valueHint: "n", description: "The port (default: a free one)" },
      host: { type: "string", valueHint: "host", description: "The interface to listen on (default: 127.0.0.1)" },
      open: { type: "boolean", description: "Open the URL in a browser" },
    },
    async run({ args }) {
      if (args._.length > 1) throw new CliUsageError(`Unexpected argument "${args._[1]}": june studio takes one file`);
      const file = args._[0];
      if (file !== undefined && !looksLikeModule(file)) {
        throw new CliUsageError(`"${file}" is not a module: june studio takes a .ts, .tsx, .js or .mjs file`);
      }
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
    },
  });
}
