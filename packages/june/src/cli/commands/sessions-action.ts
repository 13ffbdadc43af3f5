import { renderSources } from "../asides.js";
import { existsSync, statSync } from "node:fs";
import { resolve as resolvePath } from "node:path";
import type { CommandContext } from "citty";
import { createChat } from "../../chat/create-chat.js";
import { formatCost } from "../../cost/price.js";
import { endedTurns, sessionCost } from "../../stores/session-cost.js";
import type { Spent } from "../../cost/budget.js";
import type { Responder, TurnRecord } from "../../chat/types.js";
import { fileStore } from "../../stores/file-store.js";
import type { ChatStore, SessionInfo } from "../../stores/types.js";
import { describeFile } from "../attach-files.js";
import { CliUsageError } from "../errors.js";
import type { CliIO } from "../io.js";
import { createColors } from "../colors.js";
import { colorEnabled } from "../io.js";
import { DEFAULT_STORE_DIR } from "../resolve-chat.js";
import { renderSessionTable } from "../session-table.js";
import { findSessionById, sessionIdProblem } from "../session-id.js";
import type { idStoreArgs, listArgs, showArgs } from "./sessions.js";

/** Sessions are only read here; nothing answers turns. */
const noResponder: Responder = {
  respond() {
    // Internal invariant: this command only reads sessions, so nothing ever asks it for a turn.
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

/** The session an id or a unique prefix of one names; a usage error when none or several do. */
async function requireSession(store: ChatStore, id: string, dir: string): Promise<SessionInfo> {
  const found = await findSessionById(store, id);
  if (found === "missing" || "ambiguous" in found) throw new CliUsageError(sessionIdProblem(id, found, dir));
  return found;
}

/**
 * A session's turns as a transcript: `› input`, the files it sent (`[file] cat.png (image/png, 14 KB)`), then
 * the reply (or what became of the turn), then the sources it cited, numbered. A canceled
 * turn's reply, kept as far as it streamed, ends in `[canceled: cut short]`.
 */
export function renderTranscript(turns: readonly TurnRecord[]): string {
  return turns
    .map((turn) => {
      const reply =
        turn.status === "completed"
          ? (turn.text ?? "")
          : turn.status === "failed"
            ? `[failed: ${turn.error ? `${turn.error.name}: ${turn.error.message}` : "unknown error"}]`
            : turn.status === "canceled" && turn.text
              ? `${turn.text} [canceled: cut short]`
              : `[${turn.status}]${turn.text ? ` ${turn.text}` : ""}`;
      const files = (turn.files ?? []).map((file) => `  [file] ${describeFile(file)}\n`).join("");
      const sources = turn.sources?.length ? renderSources(turn.sources) : "";
      return `› ${turn.input}\n${files}${reply}\n${sources}`;
    })
    .join("\n");
}

/** The transcript's last line: what the session spent (every branch), when it spent anything. */
export function costLine(cost: Spent): string {
  if (cost.tokens === 0 && !cost.usd) return "";
  return `\n(cost: ${cost.usd === undefined ? "unknown" : formatCost(cost)}, ${cost.tokens} tokens, every branch)\n`;
}

/** `june sessions list`. */
export async function listSessions(io: CliIO, { args }: CommandContext<typeof listArgs>): Promise<number> {
  if (args._.length > 0) throw new CliUsageError(`Unexpected argument "${args._[0]}": june sessions list takes none`);
  const { store, dir } = storeOf(io, args.store);
  const path = resolvePath(io.cwd, dir);
  const colors = createColors(colorEnabled(io.env, io.stderr));
  if (!existsSync(path)) {
    // A --store that names nothing is a mistake; no default store only means no chat has run here yet.
    if (args.store !== undefined) throw new CliUsageError(`No session store at ${dir}: the folder does not exist (check --store)`);
    io.stderr.write(`${colors.dim(`No sessions yet: there is no ${dir} here. Start one with june chat or june ask.`)}\n`);
    return 0;
  }
  if (!statSync(path).isDirectory()) throw new CliUsageError(`--store ${dir} is a file, not a folder of sessions`);
  // What leaves the process is redacted the way the HTTP routes redact it (titles are first inputs), before the
  // table cuts a title to its column.
  const sessions = io.redact(await store.listSessions({ limit: 1000 }));
  if (sessions.length === 0) {
    io.stderr.write(`${colors.dim(`No sessions in ${dir} yet. Start one with june chat or june ask.`)}\n`);
    return 0;
  }
  const [suspended, costs] = await Promise.all([suspendedSessions(store, sessions), sessionCosts(store, sessions)]);
  if (args.json) {
    for (const session of sessions) {
      const cost = costs.get(session.id);
      const line = { ...session, ...(cost !== undefined ? { cost } : {}), ...(suspended.has(session.id) ? { suspended: true } : {}) };
      io.stdout.writeRedacted(`${JSON.stringify(line)}\n`);
    }
  } else {
    const terminal = io.stdout.isTTY;
    io.stdout.write(
      renderSessionTable(sessions, { terminal, colors: createColors(colorEnabled(io.env, io.stdout)), columns: io.stdout.columns, suspended, costs }),
    );
  }
  return 0;
}

/**
 * The sessions with an unfinished durable turn: one with a stored checkpoint (suspended, interrupted, or
 * running in another process right now). One `listCheckpoints` per session; none with a store that keeps no
 * checkpoints.
 */
async function suspendedSessions(store: ChatStore, sessions: readonly SessionInfo[]): Promise<Set<string>> {
  const list = store.listCheckpoints?.bind(store);
  if (!list) return new Set();
  const found = await Promise.all(sessions.map(async (s) => ((await list(s.id)).length > 0 ? s.id : undefined)));
  return new Set(found.filter((id): id is string => id !== undefined));
}

/**
 * Each session's cost (`sessionCost` of its journal's turns, the fold `session.cost()` and `GET /sessions/:id`
 * use): one `read` per listed session (the list is at most 1,000). A journal that cannot be read has none.
 */
async function sessionCosts(store: ChatStore, sessions: readonly SessionInfo[]): Promise<Map<string, Spent | undefined>> {
  const costs = await Promise.all(
    sessions.map(async (s) => [s.id, await store.read(s.id).then((entries) => sessionCost(endedTurns(entries)), () => undefined)] as const),
  );
  return new Map(costs);
}

/** `june sessions show ID`. */
export async function showSession(io: CliIO, { args }: CommandContext<typeof showArgs>): Promise<number> {
  const id = singleId(args, "show");
  const { store, dir } = storeOf(io, args.store);
  const { id: sessionId } = await requireSession(store, id, dir);
  const session = await createChat({ responder: noResponder, store }).openSession(sessionId);
  const turns = io.redact(await session.turns());
  if (args.json) for (const turn of turns) io.stdout.writeRedacted(`${JSON.stringify(turn)}\n`);
  // On a terminal, a last line says what the session spent; piped, the transcript stays the turns alone.
  else io.stdout.write(`${renderTranscript(turns)}${io.stdout.isTTY ? costLine(await session.cost()) : ""}`);
  return 0;
}

/** `june sessions export ID`: the journal, redacted. */
export async function exportSession(io: CliIO, { args }: CommandContext<typeof idStoreArgs>): Promise<number> {
  const id = singleId(args, "export");
  const { store, dir } = storeOf(io, args.store);
  const { id: sessionId } = await requireSession(store, id, dir);
  for (const entry of await store.read(sessionId)) io.stdout.writeRedacted(`${JSON.stringify(io.redact(entry))}\n`);
  return 0;
}

/** `june sessions rm ID`. */
export async function removeSession(io: CliIO, { args }: CommandContext<typeof idStoreArgs>): Promise<number> {
  const id = singleId(args, "rm");
  const { store, dir } = storeOf(io, args.store);
  const { id: sessionId } = await requireSession(store, id, dir);
  await store.deleteSession(sessionId);
  const colors = createColors(colorEnabled(io.env, io.stderr));
  io.stderr.write(`${colors.dim(`deleted session ${sessionId}`)}\n`);
  return 0;
}
