/**
 * Nothing of a durable turn's checkpoint outlives the turn, on any store, after any crash: a child process runs a
 * durable turn whose tool input carries a credential and is killed (SIGKILL) at the write points of its
 * checkpoints (seeded, a bounded number of trials); this process then opens the store, ends what the crash left
 * unfinished (cancel), and looks at every stored byte (files, SQLite with its -wal and -shm, PostgreSQL rows)
 * with the store still open. And what can hold a checkpoint is readable by its owner only.
 * `JUNE_TEST_SEED=n` replays a run with other kill points.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ChatStore, Session } from "june/chat";
import { leftoverChat, SECRET } from "./__fixtures__/leftover-chat.js";
import { openStore, storedRows } from "./__fixtures__/durable-stores.js";
import { testSchema, type TestSchema } from "../stores/postgres/__fixtures__/postgres-test-db.js";
import { seededRandom } from "../testing/__fixtures__/seeded-random.js";

const packageDir = fileURLToPath(new URL("../..", import.meta.url));
const fixture = fileURLToPath(new URL("./__fixtures__/checkpoint-leftover-child.tsx", import.meta.url));
const root = mkdtempSync(join(tmpdir(), "june-leftovers-"));
let pg: TestSchema;
beforeAll(async () => {
  pg = await testSchema("leftovers");
});
afterAll(async () => {
  rmSync(root, { recursive: true, force: true });
  await pg?.drop();
});

let n = 0;

interface Backend {
  kind: "file" | "sqlite" | "postgres";
  where(): string;
  /** Every stored byte (files) or row (databases), as text. */
  everything(where: string): Promise<string>;
  /** The files that can hold a checkpoint and their modes (none for PostgreSQL). */
  modes(where: string): Record<string, number>;
  /** The write points a child is killed at, besides `put:<k>` and `end`. */
  points: string[];
}

function filesUnder(dir: string): { path: string; text: string; mode: number }[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => {
      const path = join(entry.parentPath, entry.name);
      return { path, text: readFileSync(path, "latin1"), mode: statSync(path).mode & 0o777 };
    });
}

const backends: Backend[] = [
  {
    kind: "file",
    where: () => join(root, `file-${n++}`),
    everything: async (dir) => filesUnder(dir).map((f) => f.text).join("\n"),
    modes: (dir) => {
      const out: Record<string, number> = {};
      for (const f of filesUnder(dir)) if (f.path.includes(".checkpoints")) out[f.path.slice(dir.length)] = f.mode;
      return out;
    },
    points: ["rename", "delete"],
  },
  {
    kind: "sqlite",
    where: () => {
      const dir = join(root, `sqlite-${n++}`);
      mkdirSync(dir, { recursive: true });
      return join(dir, "chat.db");
    },
    everything: async (path) => filesUnder(join(path, "..")).map((f) => f.text).join("\n"),
    modes: (path) => Object.fromEntries(filesUnder(join(path, "..")).map((f) => [f.path.slice(path.length - "chat.db".length), f.mode])),
    points: ["wal"],
  },
  {
    kind: "postgres",
    where: () => pg.another(),
    everything: (schema) => storedRows(pg.pool, schema),
    modes: () => ({}),
    points: [],
  },
];

/** Runs the child until it dies (it kills itself at `point`); fails when it exits any other way. */
async function runUntilKilled(kind: string, where: string, point: string): Promise<void> {
  const proc = spawn(process.execPath, ["--import", "tsx", fixture, kind, where, "s1", point], { cwd: packageDir, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  proc.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const signal = await new Promise<NodeJS.Signals | null>((resolve) => proc.once("exit", (_code, sig) => resolve(sig)));
  if (signal !== "SIGKILL") throw new Error(`the child was not killed at ${point}: ${stderr}`);
}

/** Cancels what the crash left unfinished, waiting out (up to 5 s) a killed holder's lease (PostgreSQL: until it expires). */
async function endUnfinished(session: Session): Promise<void> {
  for (const record of await session.turns()) {
    if (record.status !== "interrupted" && record.status !== "suspended") continue;
    for (let waited = 0; ; waited += 100) {
      try {
        await session.cancel(record.id);
        break;
      } catch (error) {
        if ((error as Error).name !== "SessionBusyError" || waited > 5000) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  }
}

describe.each(backends)("no checkpoint outlives its turn ($kind)", (backend) => {
  it("a turn run to its end, the store still open: no byte of the tool's input anywhere; files holding checkpoints are 0600", async () => {
    const where = backend.where();
    const store: ChatStore = await openStore(backend.kind, where);
    try {
      const session = await leftoverChat({ store, durable: { suspendAfterMs: Infinity } }).createSession({ id: "s1" });
      const turn = session.send("ship the docs");
      for await (const event of turn) {
        if (event.type !== "approval-request") continue;
        // Waiting on approval, its checkpoint stored: what holds it is its owner's only.
        for (let i = 0; !(await store.getCheckpoint!("s1", turn.id))?.data.includes(event.request.id); i++) {
          if (i > 500) throw new Error("the checkpoint was never stored");
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
        const modes = backend.modes(where);
        if (backend.kind !== "postgres") expect(Object.keys(modes).length).toBeGreaterThan(0);
        for (const [path, mode] of Object.entries(modes)) expect([path, mode.toString(8)]).toEqual([path, "600"]);
        turn.approve(event.request.id);
      }
      expect((await turn.result).text).toBe("Deployed.");
      const stored = await backend.everything(where);
      expect(stored).toContain("Deployed");
      expect(stored).not.toContain(SECRET);
    } finally {
      await store.close?.();
    }
  });

  // Seeded and bounded: the store's own write points, and kills after a seeded number of checkpoint writes.
  const random = seededRandom(22 + backends.indexOf(backend));
  const puts = new Set(Array.from({ length: 3 }, () => `put:${1 + random.int(3)}`));
  const trials = [...backend.points, "end", ...puts];
  it.each(trials)(`killed at %s (seed ${random.seed}): once the store is open again and the turn ended, no byte of the tool's input is left`, async (point) => {
    const where = backend.where();
    const setup = await openStore(backend.kind, where);
    await setup.createSession({ id: "s1" });
    await setup.close?.();
    await runUntilKilled(backend.kind, where, point);

    const store = await openStore(backend.kind, where);
    try {
      const session = await leftoverChat({ store }).openSession("s1");
      await endUnfinished(session);
      const turns = await session.turns();
      expect(turns).toHaveLength(1);
      expect(["completed", "canceled"]).toContain(turns[0]!.status);
      expect(await store.listCheckpoints!("s1")).toEqual([]);
      // The store is still open: nothing of the checkpoint in a file, a temporary file, a WAL or a row.
      expect(await backend.everything(where)).not.toContain(SECRET);
    } finally {
      await store.close?.();
    }
  });
});
