import type { CommandContext } from "citty";
import type { Chat, Session } from "../../chat/types.js";
import type { McpConnections } from "../../mcp/connections.js";
import type { SessionInfo } from "../../stores/types.js";
import { approvalMode, optionalModuleArg } from "../args.js";
import { createApprover } from "../approvals.js";
import { EXIT_CANCELED } from "../cancel-on-interrupt.js";
import type { CliIO } from "../io.js";
import { createLineReader } from "../line-reader.js";
import { checkLocalModelServer } from "../provider-errors.js";
import { describeFailure, renderErrorLine } from "../render.js";
import { parseReplLine, renderReplHelp, type ReplCommand } from "../repl-commands.js";
import { EPHEMERAL_NOTE, openOrCreateSession, resolveChat } from "../resolve-chat.js";
import { findResumable, resumeTurn } from "../resume-turn.js";
import { Screen } from "../screen.js";
import { renderSessionTable } from "../session-table.js";
import { findSessionById, sessionIdProblem } from "../session-id.js";
import { showTurn } from "../turn-runner.js";
import { type AttachedFile, describeFile, readAttachment, turnInputOf } from "../attach-files.js";
import type { chatArgs } from "./chat.js";

/** How many sessions `/sessions` lists. */
const SESSIONS_SHOWN = 10;

/** Runs `june chat [file]` (see `chatCommand`) and returns the exit code. */
export async function runChat(io: CliIO, { args }: CommandContext<typeof chatArgs>, mcp?: McpConnections): Promise<number> {
  const file = optionalModuleArg(args._, "chat", " (to ask once, use june ask)");
  const mode = approvalMode(args);
  const { chat, label, model } = await resolveChat({
    io,
    file,
    model: args.model,
    baseUrl: args["base-url"],
    store: args.store,
    command: "chat",
    ...(mcp ? { mcp } : {}),
  });
  if (model) await checkLocalModelServer({ spec: model.spec, env: io.env, baseUrl: model.baseUrl });
  // `--session` is opened (and checked) at once; a new session is made when its first turn starts, so a
  // chat left without a word leaves no empty session behind.
  let session: Session | undefined = args.session === undefined ? undefined : await openOrCreateSession(chat, args.session);
  const screen = new Screen(io);
  const reader = createLineReader(io);
  const approver = createApprover({ mode, io, screen, reader: () => reader });
  const json = args.json === true;

  screen.note(screen.err.dim(`june chat · ${label} · ${session ? `session ${session.id}` : "new session"}`));
  if (chat.store.durable === false) screen.note(screen.err.dim(EPHEMERAL_NOTE));
  if (reader.terminal) screen.note(screen.err.dim("/help lists commands · Ctrl-C cancels a turn · Ctrl-D or /exit quits"));

  // Below every turn's own listener: Ctrl-C with no turn running quits.
  let quit = false;
  const stopListening = io.onInterrupt(() => {
    quit = true;
    reader.close();
    return true;
  });
  let failed = false;
  /** Files `/attach` read, sent with the next message. */
  let attached: AttachedFile[] = [];

  // A session with a suspended durable turn: its approvals are asked and the turn continues before the prompt.
  const suspended = session ? await findResumable(session, undefined) : undefined;
  if (session && suspended) {
    if (mode === "ask" && !io.stdin.isTTY) {
      screen.note(screen.err.yellow(`turn ${suspended.id} is suspended, waiting on approvals: june resume ${session.id} ${suspended.id} (with --yes or --deny) continues it`));
    } else {
      const outcome = await resumeTurn({ io, screen, session, turn: suspended, mode, approver, json, newlineAfterReply: true, ...(model ? { model: model.spec } : {}) });
      if (outcome.status === "failed") failed = true;
    }
  }

  /** Runs a command typed at the prompt; false to quit. */
  const command = async (typed: ReplCommand): Promise<boolean> => {
    switch (typed.type) {
      case "help":
        screen.note(renderReplHelp());
        return true;
      case "new":
        session = undefined;
        screen.note(screen.err.dim("a new session starts with your next message"));
        return true;
      case "session":
        screen.note(session ? `session ${session.id}` : screen.err.dim("no session yet: it is made when your first message is sent"));
        return true;
      case "sessions":
        screen.note(await sessionList(chat, screen, io, session?.id));
        return true;
      case "open": {
        const found = await findSession(chat, typed.id);
        if (typeof found === "string") {
          screen.note(renderErrorLine(found, screen.err));
          return true;
        }
        session = await chat.openSession(found.id);
        screen.note(screen.err.dim(`session ${found.id} · ${found.turnCount} turn${found.turnCount === 1 ? "" : "s"}${found.title ? ` · ${found.title}` : ""}`));
        return true;
      }
      case "attach": {
        try {
          const file = await readAttachment(typed.path, io.cwd);
          attached = [...attached, file];
          screen.note(screen.err.dim(`attached ${describeFile({ ...file, size: file.data.byteLength })}: sent with your next message`));
        } catch (error) {
          screen.note(renderErrorLine(describeFailure(error), screen.err));
        }
        return true;
      }
      case "exit":
        return false;
      case "unknown":
        screen.note(
          renderErrorLine(
            `Unknown command ${typed.name}${typed.suggestion ? `: did you mean ${typed.suggestion}?` : ""} (/help lists them)`,
            screen.err,
          ),
        );
        return true;
      case "bad":
        screen.note(renderErrorLine(typed.message, screen.err));
        return true;
      default: {
        const unreachable: never = typed;
        throw new TypeError(`Unknown REPL command ${String((unreachable as { type: unknown }).type)}`);
      }
    }
  };

  try {
    while (!quit) {
      const line = await reader.question(reader.terminal ? screen.err.cyan("› ") : "");
      if (line === undefined) break;
      const parsed = parseReplLine(line);
      if (parsed.kind === "empty") continue;
      if (parsed.kind === "command") {
        if (!(await command(parsed.command))) break;
        continue;
      }
      const input = parsed.text;
      let turn;
      try {
        session ??= await chat.createSession();
        turn = session.send(turnInputOf(input, attached));
        attached = [];
      } catch (error) {
        screen.note(renderErrorLine(describeFailure(error), screen.err));
        failed = true;
        continue;
      }
      const outcome = await showTurn({ io, screen, turn, input, approver, json, newlineAfterReply: true, model: model?.spec, reasoning: args.reasoning === true });
      if (outcome.status === "failed") failed = true;
    }
  } finally {
    stopListening();
    reader.close();
  }
  // Ctrl-C or Ctrl-D left the cursor on the prompt's line.
  if (reader.terminal) screen.note("");
  if (session) screen.note(screen.err.dim(`session ${session.id}`));
  return quit ? EXIT_CANCELED : failed ? 1 : 0;
}

/** `/sessions`: the newest sessions as a table, the current one marked. */
async function sessionList(chat: Chat, screen: Screen, io: CliIO, current: string | undefined): Promise<string> {
  const sessions = await chat.store.listSessions({ limit: SESSIONS_SHOWN });
  if (sessions.length === 0) return screen.err.dim("no sessions yet");
  const table = renderSessionTable(sessions, {
    terminal: true,
    colors: screen.err,
    columns: io.stderr.columns,
    current: current ?? "",
  });
  return `${table.trimEnd()}\n${screen.err.dim("/open <id> continues one (a prefix of its id will do)")}`;
}

/** The session `/open` names: its id, or a prefix that only one session has; else what is wrong. */
async function findSession(chat: Chat, text: string): Promise<SessionInfo | string> {
  const found = await findSessionById(chat.store, text);
  if (found === "missing" || "ambiguous" in found) return `${sessionIdProblem(text, found, "this chat's store")} (/sessions lists them)`;
  return found;
}
