import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { JournalCorruptError } from "../stores/errors.js";
import { fileStore } from "../stores/index.js";
import { canOpenJournal } from "../stores/journal-open.js";
import type { ChatStore } from "../stores/types.js";
import { createChat } from "./create-chat.js";
import type { Responder } from "./types.js";

/** Replies long enough that their journal lines are kept as text when a session opens. */
const echo: Responder = { respond: ({ input }) => ({ result: Promise.resolve({ text: `a long reply to ${input}: ${"lorem ipsum ".repeat(2000)}` }) }) };

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function sessionOf(n: number) {
  const dir = await mkdtemp(join(tmpdir(), "june-lazy-open-"));
  dirs.push(dir);
  const chat = createChat({ responder: echo, store: fileStore(dir) });
  const session = await chat.createSession({ id: "s" });
  for (let i = 0; i < n; i++) await session.send(`question ${i}`).result;
  return { dir, path: join(dir, "s.jsonl"), session };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}

describe("opening a fileStore session parses its long lines on demand", () => {
  test("the records are the ones a full read folds: branches, feedback, a second end", async () => {
    const { dir, session } = await sessionOf(4);
    await session.regenerate().result;
    const turns = await session.turns();
    await session.feedback(turns[1]!.id, { score: 1, comment: "good" });
    await session.send("after the branch").result;
    await session.checkout(turns[2]!.id);

    const store = fileStore(dir);
    expect(canOpenJournal(store)).toBe(true);
    // Spread: the copy has no `[openJournal]` (non-enumerable), so it opens through `read`.
    const eager: ChatStore = { ...store };
    expect(canOpenJournal(eager)).toBe(false);
    const lazily = await createChat({ responder: echo, store }).openSession("s");
    const fully = await createChat({ responder: echo, store: eager }).openSession("s");
    // The listing the open kept is the one a scan of the journal gives.
    expect(await store.getSession("s")).toEqual(await fileStore(dir).getSession("s"));
    expect(await lazily.turns()).toEqual(await fully.turns());
    expect(await lazily.messages()).toEqual(await fully.messages());
    expect(await lazily.branches(turns[3]!.id)).toEqual(await fully.branches(turns[3]!.id));
    // And it goes on as any session does.
    await lazily.send("one more").result;
    expect((await lazily.turns()).at(-1)!.text).toMatch(/^a long reply to one more/);
  });

  test("a damaged reply deep in the journal: the session opens, and the first read of its records names the line", async () => {
    const { dir, path } = await sessionOf(3);
    const lines = (await readFile(path, "utf8")).split("\n");
    const index = lines.findIndex((line) => line.startsWith('{"type":"turn-end"'));
    // Still a turn-end head June can read; the reply's JSON is broken (an unescaped quote).
    lines[index] = lines[index]!.replace("lorem ipsum", 'lorem "ipsum');
    await writeFile(path, lines.join("\n"));

    const session = await createChat({ responder: echo, store: fileStore(dir) }).openSession("s");
    for (const attempt of [session.turns(), session.turns(), session.messages()]) {
      const error = await rejection(attempt);
      expect(JournalCorruptError.isInstance(error)).toBe(true);
      expect((error as JournalCorruptError).line).toBe(index + 1);
      expect((error as JournalCorruptError).location).toBe(path);
    }
    // Nothing is journaled over it.
    expect(() => session.send("more")).toThrow(JournalCorruptError);
    expect((await readFile(path, "utf8")).split("\n")).toEqual(lines);
  });

  test("a key given twice, read one way in the head and another way whole, is corrupt", async () => {
    const { dir, path, session } = await sessionOf(3);
    const [first] = await session.turns();
    const lines = (await readFile(path, "utf8")).split("\n");
    const index = lines.findIndex((line) => line.startsWith('{"type":"turn-end"'));
    lines[index] = lines[index]!.replace('"status":"completed",', `"status":"completed","turnId":"${first!.id}x",`);
    await writeFile(path, lines.join("\n"));
    const opened = await createChat({ responder: echo, store: fileStore(dir) }).openSession("s");
    const error = await rejection(opened.turns());
    expect(JournalCorruptError.isInstance(error)).toBe(true);
    expect((error as JournalCorruptError).line).toBe(index + 1);
    expect((error as JournalCorruptError).detail).toMatch(/disagree/);
  });
});
