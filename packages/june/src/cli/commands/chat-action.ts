import type { CommandContext } from "citty";
import type { McpConnections } from "../../mcp/connections.js";
import { approvalMode, optionalModuleArg } from "../args.js";
import { createApprover } from "../approvals.js";
import { EXIT_CANCELED } from "../cancel-on-interrupt.js";
import type { CliIO } from "../io.js";
import { createLineReader } from "../line-reader.js";
import { describeFailure, renderErrorLine } from "../render.js";
import { EPHEMERAL_NOTE, openOrCreateSession, resolveChat } from "../resolve-chat.js";
import { Screen } from "../screen.js";
import { showTurn } from "../turn-runner.js";
import type { chatArgs } from "./chat.js";

const QUIT = new Set(["/exit", "/quit"]);

/** Runs `june chat [file]` (see `chatCommand`) and returns the exit code. */
export async function runChat(io: CliIO, { args }: CommandContext<typeof chatArgs>, mcp?: McpConnections): Promise<number> {
  const file = optionalModuleArg(args._, "chat", " (to ask once, use june ask)");
  const mode = approvalMode(args);
  const { chat, label } = await resolveChat({
    io,
    file,
    model: args.model,
    baseUrl: args["base-url"],
    store: args.store,
    command: "chat",
    ...(mcp ? { mcp } : {}),
  });
  const session = await openOrCreateSession(chat, args.session);
  const screen = new Screen(io);
  const reader = createLineReader(io);
  const approver = createApprover({ mode, io, screen, reader: () => reader });
  const json = args.json === true;

  screen.note(screen.err.dim(`june chat · ${label} · session ${session.id}`));
  if (chat.store.durable === false) screen.note(screen.err.dim(EPHEMERAL_NOTE));
  if (reader.terminal) screen.note(screen.err.dim("Ctrl-C cancels a turn · Ctrl-D or /exit quits"));

  // Below every turn's own listener: Ctrl-C with no turn running quits.
  let quit = false;
  const stopListening = io.onInterrupt(() => {
    quit = true;
    reader.close();
    return true;
  });
  let failed = false;
  try {
    while (!quit) {
      const line = await reader.question(reader.terminal ? screen.err.cyan("› ") : "");
      if (line === undefined) break;
      const input = line.trim();
      if (input === "") continue;
      if (QUIT.has(input)) break;
      let turn;
      try {
        turn = session.send(input);
      } catch (error) {
        screen.note(renderErrorLine(describeFailure(error), screen.err));
        failed = true;
        continue;
      }
      const outcome = await showTurn({ io, screen, turn, input, approver, json, newlineAfterReply: true });
      if (outcome.status === "failed") failed = true;
    }
  } finally {
    stopListening();
    reader.close();
  }
  // Ctrl-C or Ctrl-D left the cursor on the prompt's line.
  if (reader.terminal) screen.note("");
  screen.note(screen.err.dim(`session ${session.id}`));
  return quit ? EXIT_CANCELED : failed ? 1 : 0;
}
