import type { CommandContext } from "citty";
import type { McpConnections } from "../../mcp/connections.js";
import { approvalMode, looksLikeModule } from "../args.js";
import { createApprover } from "../approvals.js";
import { CliUsageError } from "../errors.js";
import type { CliIO } from "../io.js";
import { createLineReader, type LineReader } from "../line-reader.js";
import { openSessionById, resolveChat } from "../resolve-chat.js";
import { cancelResumable, findResumable, resumeTurn } from "../resume-turn.js";
import { Screen } from "../screen.js";
import { exitCodeOf } from "../turn-runner.js";
import type { resumeArgs } from "./resume.js";

/** `[file] session [turn]`: the file is the first argument when it names a module. */
export function splitResumePositionals(positionals: readonly string[]): { file?: string; sessionId: string; turnId?: string } {
  const rest = [...positionals];
  const file = rest[0] !== undefined && looksLikeModule(rest[0]) ? rest.shift() : undefined;
  const [sessionId, turnId, extra] = rest;
  if (sessionId === undefined) throw new CliUsageError("june resume needs the session's id: june resume [<file>] <session> [<turn>]");
  if (extra !== undefined) throw new CliUsageError(`Unexpected argument "${extra}": june resume takes a session id and at most one turn id`);
  return { ...(file === undefined ? {} : { file }), sessionId, ...(turnId === undefined ? {} : { turnId }) };
}

/** Runs `june resume [file] <session> [turn]` (see `resumeCommand`) and returns the exit code. */
export async function runResume(io: CliIO, { args }: CommandContext<typeof resumeArgs>, mcp?: McpConnections): Promise<number> {
  const { file, sessionId, turnId } = splitResumePositionals(args._);
  const mode = approvalMode(args);
  if (args.cancel === true && mode !== "ask") throw new CliUsageError("--cancel ends the turn without deciding anything: pass it without --yes or --deny");
  const { chat, model } = await resolveChat({
    io,
    file,
    model: args.model,
    baseUrl: args["base-url"],
    store: args.store,
    command: "resume",
    ...(mcp ? { mcp } : {}),
  });
  const session = await openSessionById(chat, sessionId);
  const turn = await findResumable(session, turnId);
  if (!turn) throw new CliUsageError(`Session "${session.id}" has no suspended turn: nothing to ${args.cancel === true ? "cancel" : "resume"}`);
  const screen = new Screen(io);
  if (args.cancel === true) {
    const outcome = await cancelResumable({ screen, session, turn });
    screen.note(screen.err.dim(`session ${session.id}`));
    return outcome === "canceled" ? 0 : 1;
  }
  let reader: LineReader | undefined;
  const approver = createApprover({ mode, io, screen, reader: () => (reader ??= createLineReader(io)) });
  try {
    const outcome = await resumeTurn({ io, screen, session, turn, mode, approver, json: args.json === true, ...(model ? { model: model.spec } : {}) });
    screen.note(screen.err.dim(`session ${session.id}`));
    return exitCodeOf(outcome);
  } finally {
    reader?.close();
  }
}
