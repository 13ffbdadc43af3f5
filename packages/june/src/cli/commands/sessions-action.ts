import { resolve as resolvePath } from "node:path";
import type { CommandContext } from "citty";
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
import type { idStoreArgs, listArgs, showArgs } from "./sessions.js";

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

/** One line per session: id, last update, turns, title, and where its journal is corrupt if it is. */
export function renderSessionList(sessions: readonly SessionInfo[]): string {
  const corrupt = (s: SessionInfo) => (s.corrupt ? `  [corrupt journal at line ${s.corrupt.line}: ${oneLine(s.corrupt.detail)}]` : "");
  return sessions
    .map((s) => `${s.id}  ${s.updatedAt}  ${s.turnCount} turn${s.turnCount === 1 ? "" : "s"}  ${oneLine(s.title ?? "")}${corrupt(s)}`.trimEnd())
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

/** `june sessions list`. */
export async function listSessions(io: CliIO, { args }: CommandContext<typeof listArgs>): Promise<number> {
  if (args._.length > 0) throw new CliUsageError(`Unexpected argument "${args._[0]}": june sessions list takes none`);
  const { store } = storeOf(io, args.store);
  // What leaves the process is redacted the way the HTTP routes redact it (titles are first inputs).
  const sessions = redact(await store.listSessions({ limit: 1000 }));
  if (args.json) for (const session of sessions) io.stdout.write(`${JSON.stringify(session)}\n`);
  else io.stdout.write(renderSessionList(sessions));
  return 0;
}

/** `june sessions show ID`. */
export async function showSession(io: CliIO, { args }: CommandContext<typeof showArgs>): Promise<number> {
  const id = singleId(args, "show");
  const { store, dir } = storeOf(io, args.store);
  await requireSession(store, id, dir);
  const session = await createChat({ responder: noResponder, store }).openSession(id);
  const turns = redact(await session.turns());
  if (args.json) for (const turn of turns) io.stdout.write(`${JSON.stringify(turn)}\n`);
  else io.stdout.write(renderTranscript(turns));
  return 0;
}

/** `june sessions export ID`: the journal, redacted. */
export async function exportSession(io: CliIO, { args }: CommandContext<typeof idStoreArgs>): Promise<number> {
  const id = singleId(args, "export");
  const { store, dir } = storeOf(io, args.store);
  await requireSession(store, id, dir);
  for (const entry of await store.read(id)) io.stdout.write(`${JSON.stringify(redact(entry))}\n`);
  return 0;
}

/** `june sessions rm ID`. */
export async function removeSession(io: CliIO, { args }: CommandContext<typeof idStoreArgs>): Promise<number> {
  const id = singleId(args, "rm");
  const { store, dir } = storeOf(io, args.store);
  await requireSession(store, id, dir);
  await store.deleteSession(id);
  const colors = createColors(colorEnabled(io.env, io.stderr));
  io.stderr.write(`${colors.dim(`deleted session ${id}`)}\n`);
  return 0;
}
