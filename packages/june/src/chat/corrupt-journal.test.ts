import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { JuneError } from "../errors/june-error.js";
import { JournalCorruptError } from "../stores/errors.js";
import { fileStore, memoryStore } from "../stores/index.js";
import type { ChatStore, JournalEntry } from "../stores/types.js";
import { createChat } from "./create-chat.js";
import type { Responder } from "./types.js";

const echo: Responder = { respond: ({ input }) => ({ result: Promise.resolve({ text: `re: ${input}` }) }) };

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A file-store chat with a session of `n` completed turns; the journal's path. */
async function sessionOf(n: number) {
  const dir = await mkdtemp(join(tmpdir(), "june-corrupt-"));
  dirs.push(dir);
  const chat = createChat({ responder: echo, store: fileStore(dir) });
  const session = await chat.createSession({ id: "s" });
  for (let i = 0; i < n; i++) await session.send(`question ${i}`).result;
  return { dir, path: join(dir, "s.jsonl"), turns: await session.turns() };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}

describe("a damaged journal is never a silent loss", () => {
  test("one changed character in a parentTurnId: opening names the file and the line, not a shorter history", async () => {
    const { dir, path, turns } = await sessionOf(3);
    const lines = (await readFile(path, "utf8")).split("\n");
    const index = lines.findIndex((line) => line.includes(`"parentTurnId":"${turns[1].id}"`));
    expect(index).toBeGreaterThan(0);
    // Still valid JSON with a valid seq: only the link is broken.
    lines[index] = lines[index].replace(`"parentTurnId":"${turns[1].id}"`, `"parentTurnId":"${turns[1].id.slice(0, -1)}#"`);
    await writeFile(path, lines.join("\n"));

    const chat = createChat({ responder: echo, store: fileStore(dir) });
    const error = await rejection(chat.openSession("s"));
    expect(JournalCorruptError.isInstance(error)).toBe(true);
    const corrupt = error as JournalCorruptError;
    expect(corrupt.line).toBe(index + 1);
    expect(corrupt.location).toBe(path);
    expect(corrupt.message).toContain(`line ${index + 1} of ${path}`);
    expect(corrupt.detail).toMatch(/parentTurnId/);
  });

  test("a turn-start without a turnId is corrupt on read and refused on append", async () => {
    const { dir, path } = await sessionOf(2);
    const lines = (await readFile(path, "utf8")).split("\n");
    const index = lines.findIndex((line) => line.startsWith('{"type":"turn-start"'));
    const entry = JSON.parse(lines[index]) as Record<string, unknown>;
    delete entry.turnId;
    lines[index] = JSON.stringify(entry);
    await writeFile(path, lines.join("\n"));

    const store = fileStore(dir);
    const error = await rejection(store.read("s"));
    expect(JournalCorruptError.isInstance(error)).toBe(true);
    expect((error as JournalCorruptError).line).toBe(index + 1);
    expect((error as Error).message).toMatch(/turn-start: needs a `turnId`/);

    const fresh = memoryStore();
    await fresh.createSession({ id: "m" });
    const bad = { type: "turn-start", input: "x", context: { builder: "full", turnIds: [] } } as never;
    await expect(fresh.append("m", [bad], { expectedSeq: 1 })).rejects.toThrow(TypeError);
    await expect(fresh.append("m", [bad], { expectedSeq: 1 })).rejects.toThrow(/needs a `turnId`/);
  });

  test("a damaged turn id in a turn-end is corrupt, not a turn that reads `interrupted`", async () => {
    const { dir, path, turns } = await sessionOf(2);
    const text = await readFile(path, "utf8");
    const damaged = text.replace(
      new RegExp(`("type":"turn-end"[^\\n]*"turnId":")${turns[0].id}"`),
      `$1${turns[0].id}x"`,
    );
    expect(damaged).not.toBe(text);
    await writeFile(path, damaged);
    const error = await rejection(createChat({ responder: echo, store: fileStore(dir) }).openSession("s"));
    expect(JournalCorruptError.isInstance(error)).toBe(true);
    expect((error as JournalCorruptError).detail).toMatch(/turn-end: `turnId` ".*x" names no earlier turn/);
  });

  test("a store that does not check its reads: the session still refuses a dangling parent", async () => {
    const inner = memoryStore();
    const chat = createChat({ responder: echo, store: inner });
    const session = await chat.createSession({ id: "u" });
    await session.send("one").result;
    await session.send("two").result;
    // A user's store that hands back what it holds, damaged.
    const damaging: ChatStore = {
      ...inner,
      async read(id, options) {
        return (await inner.read(id, options)).map((entry): JournalEntry =>
          entry.type === "turn-start" && entry.parentTurnId !== undefined ? { ...entry, parentTurnId: "gone" } : entry,
        );
      },
    };
    const other = createChat({ responder: echo, store: damaging });
    const error = await rejection(other.openSession("u"));
    expect(JournalCorruptError.isInstance(error)).toBe(true);
    expect((error as JournalCorruptError).line).toBe(4);
    expect(JuneError.isInstance(error)).toBe(true);
  });
});
