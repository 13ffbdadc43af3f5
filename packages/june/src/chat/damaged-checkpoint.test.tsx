/**
 * One durable turn whose checkpoint cannot be read (truncated, encrypted with another key, or with none given)
 * affects that turn only: it reads back with why, waits on nothing, cannot resume, can be canceled; the rest of
 * the session (its other turns, the listing, new turns once it is canceled) works, over the library, the HTTP
 * handler (`GET /sessions/:id`, `/ui-messages`) and `june sessions list|show`, on files, SQLite and PostgreSQL.
 */
import { mkdtempSync, readFileSync, rmSync, truncateSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ChatStore, DurableOptions, Session } from "june/chat";
import { createChatHandler } from "june/server";
import { leftoverChat } from "./__fixtures__/leftover-chat.js";
import { openStore } from "./__fixtures__/durable-stores.js";
import { createFakeIO } from "../cli/__fixtures__/fake-io.js";
import { runCli } from "../cli/main.js";
import { loadDriver } from "../stores/load-driver.js";
import { testSchema, type TestSchema } from "../stores/postgres/__fixtures__/postgres-test-db.js";

const root = mkdtempSync(join(tmpdir(), "june-damaged-"));
let pg: TestSchema;
beforeAll(async () => {
  pg = await testSchema("damaged");
});
afterAll(async () => {
  rmSync(root, { recursive: true, force: true });
  await pg?.drop();
});

const KEY = "11".repeat(32);
const OTHER_KEY = "22".repeat(32);
let n = 0;

interface Backend {
  kind: "file" | "sqlite" | "postgres";
  where(): string;
  /** Cuts the stored checkpoint of `turnId` in half, as a crash or a bad disk would. */
  truncate(where: string, turnId: string): Promise<void>;
}

const backends: Backend[] = [
  {
    kind: "file",
    where: () => join(root, `file-${n++}`),
    truncate: async (dir, turnId) => {
      const path = join(dir, "s1.checkpoints", `${turnId}.checkpoint.json`);
      truncateSync(path, Math.floor(readFileSync(path).length / 2));
    },
  },
  {
    kind: "sqlite",
    where: () => join(root, `sqlite-${n++}.db`),
    truncate: async (path, turnId) => {
      const Database = loadDriver<typeof import("better-sqlite3")>("better-sqlite3", "test", "12");
      const db = new Database(path);
      db.prepare("UPDATE june_checkpoints SET data = substr(data, 1, length(data) / 2) WHERE turn_id = ?").run(turnId);
      db.close();
    },
  },
  {
    kind: "postgres",
    where: () => pg.another(),
    truncate: async (schema, turnId) => {
      await pg.pool.query(`UPDATE "${schema}".june_checkpoints SET data = left(data, length(data) / 2) WHERE turn_id = $1`, [turnId]);
    },
  },
];

interface Damage {
  name: string;
  /** The writer's `durable`, the reader's, and whether the stored checkpoint is cut. */
  written: DurableOptions;
  read: DurableOptions;
  truncated: boolean;
  reason: RegExp;
}

const damages: Damage[] = [
  { name: "a truncated checkpoint", written: {}, read: {}, truncated: true, reason: /not valid JSON \(damaged\)/ },
  { name: "a wrong encryptionKey", written: { encryptionKey: KEY }, read: { encryptionKey: OTHER_KEY }, truncated: false, reason: /does not decrypt with this `durable.encryptionKey`/ },
  { name: "no encryptionKey", written: { encryptionKey: KEY }, read: {}, truncated: false, reason: /encrypted and the responder has no `durable.encryptionKey`/ },
];

/** A completed turn, then a durable turn suspended on approval (its checkpoint stored); the second's id. */
async function sessionWithSuspendedTurn(store: ChatStore, durable: DurableOptions): Promise<string> {
  const chat = leftoverChat({ store, durable: { ...durable, suspendAfterMs: Infinity } });
  const session = await chat.createSession({ id: "s1" });
  const first = session.send("deploy once");
  for await (const event of first) if (event.type === "approval-request") first.approve(event.request.id);
  await first.result;
  const suspending = leftoverChat({ store, durable: { ...durable, suspendAfterMs: 0 } });
  const second = (await suspending.openSession("s1")).send("deploy again");
  const ended = await second.result.then(
    () => "ended",
    (error: Error) => error.name,
  );
  expect(ended).toBe("TurnSuspendedError");
  return second.id;
}

async function json(response: Response): Promise<Record<string, unknown>> {
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as Record<string, unknown>;
}

describe.each(backends)("a damaged checkpoint affects its turn only ($kind)", (backend) => {
  it.each(damages)("$name", async (damage) => {
    const where = backend.where();
    const writer = await openStore(backend.kind, where);
    const turnId = await sessionWithSuspendedTurn(writer, damage.written);
    await writer.close?.();
    if (damage.truncated) await backend.truncate(where, turnId);

    const store = await openStore(backend.kind, where);
    try {
      const chat = leftoverChat({ store, durable: { ...damage.read, suspendAfterMs: Infinity } });
      const session: Session = await chat.openSession("s1");
      // The library: the first turn as it was; the second says why it cannot resume, and waits on nothing.
      const [done, damaged] = await session.turns();
      expect(done).toMatchObject({ status: "completed", text: "Deployed." });
      expect(damaged).toMatchObject({ id: turnId, status: "suspended", checkpointUnreadable: expect.stringMatching(damage.reason) });
      expect(damaged!.resumable).toBeUndefined();
      expect(await session.pendingApprovals()).toEqual([]);
      await expect(session.resume(turnId)).rejects.toMatchObject({ name: "CheckpointUnreadableError", turnId });
      expect((await store.listSessions()).map((s) => s.id)).toEqual(["s1"]);

      // The HTTP handler: 200s, the turn's reason in both views.
      const handler = createChatHandler(chat);
      const view = await json(await handler(new Request("http://june.test/sessions/s1")));
      expect((view.turns as Record<string, unknown>[]).map((t) => [t.status, t.checkpointUnreadable !== undefined])).toEqual([
        ["completed", false],
        ["suspended", true],
      ]);
      expect(view.pendingApprovals ?? []).toEqual([]);
      const messages = (await handler(new Request("http://june.test/sessions/s1/ui-messages")).then(async (r) => {
        expect(r.status).toBe(200);
        return r.json();
      })) as { id: string; metadata?: { turnStatus?: string; checkpointUnreadable?: string } }[];
      expect(messages.find((m) => m.id === turnId)?.metadata).toMatchObject({ turnStatus: "suspended", checkpointUnreadable: expect.stringMatching(damage.reason) });

      // The CLI (a file store's folder): the store is listed, the session shown.
      if (backend.kind === "file") {
        const list = createFakeIO({ cwd: root });
        expect(await runCli({ argv: ["sessions", "list", "--store", where, "--json"], io: list }), list.stderrText()).toBe(0);
        expect(JSON.parse(list.stdoutText().trim())).toMatchObject({ id: "s1", turnCount: 2 });
        const show = createFakeIO({ cwd: root });
        expect(await runCli({ argv: ["sessions", "show", "s1", "--store", where], io: show }), show.stderrText()).toBe(0);
        expect(show.stdoutText()).toContain("Deployed.");
      }

      // Canceled, it is gone; then the session takes new turns.
      await session.cancel(turnId);
      expect((await session.turns()).map((t) => t.status)).toEqual(["completed", "canceled"]);
      expect(await store.listCheckpoints!("s1")).toEqual([]);
      const next = session.send("deploy at last");
      for await (const event of next) if (event.type === "approval-request") next.approve(event.request.id);
      expect((await next.result).text).toBe("Deployed.");
    } finally {
      await store.close?.();
    }
  });
});
