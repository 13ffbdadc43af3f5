import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt } from "../cli/__fixtures__/built-bin.js";
import { fileStore } from "../stores/index.js";
import { postgresStore } from "../stores/postgres/postgres-store.js";
import { TEST_DATABASE_URL, testSchema, type TestSchema } from "../stores/postgres/__fixtures__/postgres-test-db.js";
import { sqliteStore } from "../stores/sqlite/sqlite-store.js";
import type { ChatStore } from "../stores/types.js";
import { seededRandom } from "../testing/__fixtures__/seeded-random.js";
import { scriptedModel } from "../testing/scripted-model.js";
import { createChat } from "./create-chat.js";

/**
 * The kill -9 campaign, kept: for every durable store, a process sends turn after turn and is killed with
 * SIGKILL at seeded moments (before its first turn, mid-turn, right after an acknowledgement), again and
 * again. Every acknowledged turn must be in the journal, completed, with its reply; the journal must stay
 * readable and the session usable (the dead process's lease taken over). `JUNE_TEST_SEED=n` replays a run.
 */
const KILLS = { file: 10, sqlite: 7, postgres: 7 } as const;
type Kind = keyof typeof KILLS;

const fixture = fileURLToPath(new URL("./__fixtures__/kill-loop-child.mjs", import.meta.url));
const root = mkdtempSync(join(tmpdir(), "june-kill-loop-"));
let pg: TestSchema;

beforeAll(async () => {
  ensureBuilt(); // the children run the built package
  pg = await testSchema("kill_loop");
}, 240_000);

afterAll(async () => {
  await pg?.drop();
  rmSync(root, { recursive: true, force: true });
});

interface Acked {
  turnId: string;
  input: string;
  text: string;
}

function storeFor(kind: Kind): { store: ChatStore; args: string[] } {
  switch (kind) {
    case "file":
      return { store: fileStore(join(root, "file")), args: [join(root, "file")] };
    case "sqlite":
      return { store: sqliteStore(join(root, "chat.db")), args: [join(root, "chat.db")] };
    case "postgres":
      return { store: postgresStore({ connectionString: TEST_DATABASE_URL, schema: pg.schema, leaseTtlMs: 500 }), args: [TEST_DATABASE_URL] };
  }
}

/** Runs the child until `acks` turns are acknowledged, waits `extraMs` more (mid-turn, most often), kills it. */
async function runAndKill(kind: Kind, args: string[], acks: number, extraMs: number): Promise<Acked[]> {
  const child = spawn(process.execPath, [fixture, kind, args[0]!, "s", ...(kind === "postgres" ? [pg.schema] : [])], { stdio: ["ignore", "pipe", "inherit"] });
  const acked: Acked[] = [];
  let ready = false;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const lines = createInterface({ input: child.stdout });
  const enough = new Promise<void>((resolve) => {
    lines.on("line", (line) => {
      const message = JSON.parse(line) as { event: string } & Acked;
      if (message.event === "ready") ready = true;
      if (message.event === "acked") acked.push({ turnId: message.turnId, input: message.input, text: message.text });
      if (ready && acked.length >= acks) resolve();
    });
  });
  await Promise.race([enough, exited, sleep(30_000)]);
  await sleep(extraMs);
  child.kill("SIGKILL");
  await exited;
  expect(child.signalCode, `the ${kind} child ended before it was killed`).toBe("SIGKILL");
  // Lines printed before the kill may still be in the pipe.
  await new Promise<void>((resolve) => (child.stdout.readableEnded ? resolve() : child.stdout.once("close", () => resolve())));
  return acked;
}

async function killLoop(kind: Kind): Promise<void> {
  const random = seededRandom(4_242 + Object.keys(KILLS).indexOf(kind));
  const { store, args } = storeFor(kind);
  const chat = createChat({ model: scriptedModel(() => "from the test"), store });
  await chat.createSession({ id: "s" });
  const acked: Acked[] = [];
  for (let k = 0; k < KILLS[kind]; k++) {
    acked.push(...(await runAndKill(kind, args, random.int(3), random.int(25))));
  }
  const what = `${kind} (seed ${random.seed})`;
  expect(acked.length, `${what}: some turns were acknowledged`).toBeGreaterThan(0);
  // Reopened, the session holds every acknowledged turn, completed, with its reply.
  const session = await chat.openSession("s");
  const turns = await session.turns();
  const byId = new Map(turns.map((turn) => [turn.id, turn]));
  for (const ack of acked) {
    const turn = byId.get(ack.turnId);
    expect(turn, `${what}: acknowledged turn ${ack.turnId} is missing`).toBeDefined();
    expect(turn).toMatchObject({ input: ack.input, status: "completed", text: ack.text });
  }
  expect(new Set(turns.map((turn) => turn.id)).size).toBe(turns.length);
  for (const turn of turns) expect(["completed", "interrupted"], `${what}: turn ${turn.id}`).toContain(turn.status);
  // And it goes on: the last killed process's lease is taken over.
  let next;
  for (let attempt = 0; ; attempt++) {
    const turn = session.send("after the kills");
    try {
      next = await turn.result;
      break;
    } catch (error) {
      if ((error as Error).name !== "SessionBusyError" || attempt > 40) throw error;
      await sleep(50);
    }
  }
  expect(next.text).toBe("from the test");
  await store.close?.();
}

describe("kill -9 loop over every store", () => {
  it(`kills a process mid-work ${KILLS.file} times (fileStore), ${KILLS.sqlite} (SQLite), ${KILLS.postgres} (PostgreSQL): no acknowledged turn is lost`, async () => {
    // The stores run side by side: each has its own session and files.
    await Promise.all((Object.keys(KILLS) as Kind[]).map((kind) => killLoop(kind)));
  }, 240_000);
});
