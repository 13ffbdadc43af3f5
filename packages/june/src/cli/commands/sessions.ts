import { resolve as resolvePath } from "node:path";
import { defineCommand } from "citty";
import { createChat } from "../../chat/create-chat.js";
import { redact } from "../../chat/redact.js";
import type { Responder, TurnRecord } from "../../chat/types.js";
import { JuneError } from "../../errors/june-error.js";
import { fileStore } from "../../stores/file-store.js";
import type { ChatStore, SessionInfo } from "../../stores/types.js";
import { CliUsageError } from "../errors.js";
import type { CliIO } from "../io.js";
import { createColors } from "../colors.js";
import { colorEnabled } from "../io.js";
import { DEFAULT_STORE_DIR } from "../resolve-chat.js";
import { oneLine } from "../render.js";
import { storeArg } from "./shared-args.js";

const jsonArg = {
  json: { type: "boolean", description: "Print JSON lines instead of text" },
} as const;

const idArg = {
  id: { type: "positional", required: true, description: "The session's id" },
} as const;

/** Sessions are only read here; nothing answers turns. */
const noResponder: Responder = {
  respond() {
    throw new Error("june sessions does not answer turns");
  },
};

function storeOf(io: CliIO, dir: string | undefined): { store: ChatStore; dir: string } {
  const path = resolvePath(io.cwd, dir ?? DEFAULT_STORE_DIR);
  return { store: fileStore(path), dir: dir ?? DEFAULT_STORE_DIR };
}

function singleId(args: { _: string[] }, command: string): string {
  const [id, extra] = args._;
  if (id === undefined) throw new CliUsageError(`Missing the session id: june sessions ${command} ID`);
  if (extra !== undefined) throw new CliUsageError(`Unexpected argument "${extra}": june sessions ${command} takes one id`);
  return id;
}

async function requireSession(store: ChatStore, id: string, dir: string): Promise<SessionInfo> {
  let info: SessionInfo | undefined;
  try {
    info = await store.getSession(id);
  } catch (error) {
    if (JuneError.hasName(error, "InvalidSessionIdError")) throw new CliUsageError((error as Error).message);
    throw error;
  }
  if (!info) throw new CliUsageError(`No session "${id}" in ${dir}`);
  return info;
}

/** One line per session: id, last update, turns, title. */
export function renderSessionList(sessions: readonly SessionInfo[]): string {
  return sessions
    .map((s) => `${s.id}  ${s.updatedAt}  ${s.turnCount} turn${s.turnCount === 1 ? "" : "s"}  ${oneLine(s.title ?? "")}`.trimEnd())
    .map((line) => `${line}\n`)
    .join("");
}

/** A session's turns as a transcript: `› input`, then the reply (or what became of the turn). */
export function renderTranscript(turns: readonly TurnRecord[]): string {
  return turns
    .map((turn) => {
      const reply =
        turn.status === "completed"
          ? (turn.text ?? "")
          : turn.status === "failed"
            ? `[failed: ${turn.error ? `${turn.error.name}: ${turn.error.message}` : "unknown error"}]`
            : `[${turn.status}]${turn.text ? ` ${turn.text}` : ""}`;
      return `› ${turn.input}\n${reply}\n`;
    })
    .join("\n");
}

/** `june sessions list | show ID | export ID | rm ID`. */
export function sessionsCommand(io: CliIO) {
  const list = defineCommand({
    meta: { name: "list", description: "List sessions, newest first" },
    args: { ...storeArg, ...jsonArg },
    async run({ args }) {
      if (args._.length > 0) throw new CliUsageError(`Unexpected argument "${args._[0]}": june sessions list takes none`);
      const { store } = storeOf(io, args.store);
      const sessions = await store.listSessions({ limit: 1000 });
      if (args.json) for (const session of sessions) io.stdout.write(`${JSON.stringify(session)}\n`);
      else io.stdout.write(renderSessionList(sessions));
      return 0;
    },
  });
  const show = defineCommand({
    meta: { name: "show", description: "Show a session's turns" },
    args: { ...idArg, ...storeArg, ...jsonArg },
    async run({ args }) {
      const id = singleId(args, "show");
      const { store, dir } = storeOf(io, args.store);
      await requireSession(store, id, dir);
      const session = await createChat({ responder: noResponder, store }).openSession(id);
      const turns = await session.turns();
      if (args.json) for (const turn of turns) io.stdout.write(`${JSON.stringify(turn)}\n`);
      else io.stdout.write(renderTranscript(turns));
      return 0;
    },
  });
  const exportCommand = defineCommand({
    meta: { name: "export", description: "Print a session's journal as JSON lines, with credentials redacted" },
    args: { ...idArg, ...storeArg },
    async run({ args }) {
      const id = singleId(args, "export");
      const { store, dir } = storeOf(io, args.store);
      await requireSession(store, id, dir);
      for (const entry of await store.read(id)) io.stdout.write(`${JSON.stringify(redact(entry))}\n`);
      return 0;
    },
  });
  const rm = defineCommand({
    meta: { name: "rm", description: "Delete a session and its journal" },
    args: { ...idArg, ...storeArg },
    async run({ args }) {
      const id = singleId(args, "rm");
      const { store, dir } = storeOf(io, args.store);
      await requireSession(store, id, dir);
      await store.deleteSession(id);
      const colors = createColors(colorEnabled(io.env, io.stderr));
      io.stderr.write(`${colors.dim(`deleted session ${id}`)}\n`);
      return 0;
    },
  });
  return defineCommand({
    meta: { name: "sessions", description: "List, show, export (redacted) or delete the sessions in a store" },
    subCommands: { list, show, export: exportCommand, rm },
  });
}
