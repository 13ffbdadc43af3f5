import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { killLineChildren, spawnLineChild } from "../../__fixtures__/line-child.js";
import { sqliteStore } from "./sqlite-store.js";

// Real processes: each child runs a fixture script that imports the store's source through tsx.
const storeUrl = new URL("./sqlite-store.ts", import.meta.url).href;
const fixture = fileURLToPath(new URL("./__fixtures__/sqlite-contender.mjs", import.meta.url));

const root = mkdtempSync(join(tmpdir(), "june-sqlite-procs-"));
afterAll(() => {
  killLineChildren();
  rmSync(root, { recursive: true, force: true });
});

interface Reply {
  result: string;
  name?: string;
  seqs?: number[];
  pid?: number;
}

function contender(path: string, sessionId: string) {
  const { child, exited, next, send } = spawnLineChild(fixture, [storeUrl, path, sessionId]);
  return {
    child,
    exited,
    async next(): Promise<Reply> {
      return JSON.parse(await next()) as Reply;
    },
    async ask(command: string): Promise<Reply> {
      send(command);
      return this.next();
    },
  };
}

describe("sqliteStore across processes", () => {
  it("processes appending with the same expectedSeq: exactly one wins each round", async () => {
    const path = join(root, "race.db");
    const store = sqliteStore(path);
    try {
      await store.createSession({ id: "s" });
      const racers = [contender(path, "s"), contender(path, "s"), contender(path, "s")];
      for (const racer of racers) expect((await racer.next()).result).toBe("ready");

      let seq = 1;
      const winners = new Set<number>();
      for (let round = 0; round < 8; round++) {
        // Every racer gets the command at once and appends after the same journal position.
        const replies = await Promise.all(racers.map((racer, i) => racer.ask(`append ${seq} r${round}-${i}`)));
        const won = replies.flatMap((reply, i) => (reply.result === "won" ? [i] : []));
        expect(won, JSON.stringify(replies)).toHaveLength(1);
        for (const reply of replies) if (reply.result !== "won") expect(reply.name).toBe("ConflictError");
        expect(replies[won[0]].seqs).toEqual([seq + 1, seq + 2]);
        winners.add(won[0]);
        seq += 2;
      }
      for (const racer of racers) racer.child.stdin.end();
      await Promise.all(racers.map((racer) => racer.exited));

      const entries = await store.read("s");
      expect(entries.map((e) => e.seq)).toEqual(entries.map((_, i) => i + 1));
      expect(entries).toHaveLength(1 + 8 * 2);
      expect(await store.getSession("s")).toMatchObject({ turnCount: 8 });
    } finally {
      await store.close();
    }
  });

  it("a lease held by another process is refused, and taken over at once when that process dies", async () => {
    const path = join(root, "lease.db");
    const store = sqliteStore(path);
    try {
      await store.createSession({ id: "s" });
      const holder = contender(path, "s");
      expect((await holder.next()).result).toBe("ready");
      expect(await holder.ask("acquire")).toEqual({ result: "acquired" });
      await expect(store.acquireTurn("s")).rejects.toMatchObject({ name: "SessionBusyError", sessionId: "s" });
      await expect(store.acquireTurn("s")).rejects.toThrow(new RegExp(`held by process ${holder.child.pid}`));

      // Released by its holder: free for this process, and then refused to the other.
      expect(await holder.ask("release")).toEqual({ result: "released" });
      const mine = await store.acquireTurn("s");
      expect(await holder.ask("acquire")).toMatchObject({ result: "rejected", name: "SessionBusyError" });
      await store.releaseTurn(mine);

      // A holder killed mid-turn leaves its row behind; its pid is dead, so the lease is taken over.
      expect(await holder.ask("acquire")).toEqual({ result: "acquired" });
      holder.child.kill("SIGKILL");
      await holder.exited;
      const taken = await store.acquireTurn("s");
      await store.releaseTurn(taken);
    } finally {
      await store.close();
    }
  });
});
