import type { CommandContext } from "citty";
import type { McpConnections } from "../../mcp/connections.js";
import { approvalMode, looksLikeModule, splitAskPositionals } from "../args.js";
import { fileFlagValues, readAttachment, turnInputOf } from "../attach-files.js";
import { createApprover } from "../approvals.js";
import type { CliIO } from "../io.js";
import { createLineReader, type LineReader } from "../line-reader.js";
import { checkLocalModelServer } from "../provider-errors.js";
import { describeFailure, renderErrorLine } from "../render.js";
import { EPHEMERAL_NOTE, openOrCreateSession, resolveChat } from "../resolve-chat.js";
import { Screen } from "../screen.js";
import { exitCodeOf, showTurn } from "../turn-runner.js";
import type { askArgs } from "./ask.js";

/** Runs `june ask [file] <input...>` (see `askCommand`) and returns the exit code. */
export async function runAsk(io: CliIO, { args, rawArgs }: CommandContext<typeof askArgs>, mcp?: McpConnections): Promise<number> {
  const positionals = [...args._];
  if (positionals.length === 0 || (positionals.length === 1 && looksLikeModule(positionals[0]!))) {
    const piped = io.stdin.isTTY ? "" : (await readAll(io.stdin.stream)).trim();
    if (piped) positionals.push(piped);
  }
  const attached = await Promise.all(fileFlagValues(rawArgs).map((path) => readAttachment(path, io.cwd)));
  const { file, input } = splitAskPositionals(positionals, { filesOnly: attached.length > 0 });
  const mode = approvalMode(args);
  const { chat, model } = await resolveChat({
    io,
    file,
    model: args.model,
    baseUrl: args["base-url"],
    store: args.store,
    command: "ask",
    ...(mcp ? { mcp } : {}),
  });
  // A local server that is not running is one line now, before a session is made for a turn that cannot run.
  if (model) await checkLocalModelServer({ spec: model.spec, env: io.env, baseUrl: model.baseUrl });
  const session = await openOrCreateSession(chat, args.session);
  const screen = new Screen(io);
  let reader: LineReader | undefined;
  const approver = createApprover({ mode, io, screen, reader: () => (reader ??= createLineReader(io)) });
  try {
    let turn;
    try {
      turn = session.send(turnInputOf(input, attached));
    } catch (error) {
      screen.note(renderErrorLine(describeFailure(error), screen.err));
      return 1;
    }
    const outcome = await showTurn({ io, screen, turn, input, approver, json: args.json === true, model: model?.spec, reasoning: args.reasoning === true });
    screen.note(screen.err.dim(`session ${session.id}`));
    if (chat.store.durable === false) screen.note(screen.err.dim(EPHEMERAL_NOTE));
    return exitCodeOf(outcome);
  } finally {
    reader?.close();
  }
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString("utf8");
}
