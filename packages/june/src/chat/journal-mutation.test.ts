import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JuneError } from "../errors/june-error.js";
import { fileStore } from "../stores/index.js";
import { seededRandom } from "../testing/__fixtures__/seeded-random.js";
import { createChat } from "./create-chat.js";
import type { Responder, TurnRecord } from "./types.js";

/**
 * The journal-mutation campaign, kept: a few hundred seeded damages to one real journal (a changed, removed
 * or added character, a cut, a line removed, doubled or swapped). Opening the damaged session must end in
 * all turns, in a lost damaged tail (the turns before the damaged line intact), or in a typed June error;
 * never an untyped error, a hang, or turns lost before the damage. `JUNE_TEST_SEED=n` replays a run.
 */
const MUTATIONS = 300;
const random = seededRandom(20_261_201);

const echo: Responder = { respond: ({ input }) => ({ result: Promise.resolve({ text: `reply to ${input}` }) }) };

let root: string;
let original: Buffer;
let originalTurns: TurnRecord[];
let lineStarts: number[];

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "june-mutations-"));
  const chat = createChat({ responder: echo, store: fileStore(join(root, "source")) });
  const session = await chat.createSession({ id: "s" });
  for (let i = 0; i < 5; i++) await session.send(`question ${i}`).result;
  await session.regenerate().result; // a branch: a checkout-free new alternative of the last turn
  const turns = await session.turns();
  await session.feedback(turns[1]!.id, { score: 1, comment: "good", tags: ["x"] });
  await session.send("after the branch").result;
  originalTurns = await session.turns();
  original = await readFile(join(root, "source", "s.jsonl"));
  lineStarts = [0];
  for (let i = 0; i < original.length; i++) if (original[i] === 0x0a && i + 1 < original.length) lineStarts.push(i + 1);
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** The 0-based line of byte `offset` in the original journal. */
const lineOf = (offset: number) => {
  let line = 0;
  while (line + 1 < lineStarts.length && lineStarts[line + 1]! <= offset) line++;
  return line;
};

const PRINTABLE = ' {}[]":,0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-_\\\n';

/** One seeded damage: the new bytes and the first line of the original it touches. */
function mutate(): { bytes: Buffer; line: number; kind: string } {
  const lines = original.toString("utf8").split("\n").slice(0, -1);
  const at = random.int(original.length);
  const char = Buffer.from(random.pick([...PRINTABLE]));
  const kind = random.pick(["flip", "flip", "flip", "delete", "insert", "cut", "drop-line", "double-line", "swap-lines"] as const);
  switch (kind) {
    case "flip":
      return { bytes: Buffer.concat([original.subarray(0, at), char, original.subarray(at + 1)]), line: lineOf(at), kind };
    case "delete":
      return { bytes: Buffer.concat([original.subarray(0, at), original.subarray(at + 1)]), line: lineOf(at), kind };
    case "insert":
      return { bytes: Buffer.concat([original.subarray(0, at), char, original.subarray(at)]), line: lineOf(at), kind };
    case "cut":
      return { bytes: original.subarray(0, at), line: lineOf(at), kind };
    default: {
      const i = random.int(lines.length);
      const copy = lines.slice();
      if (kind === "drop-line") copy.splice(i, 1);
      else if (kind === "double-line") copy.splice(i, 0, lines[i]!);
      else if (i + 1 < copy.length) [copy[i], copy[i + 1]] = [copy[i + 1]!, copy[i]!];
      return { bytes: Buffer.from(`${copy.join("\n")}\n`), line: i, kind };
    }
  }
}

/** What a turn's journaled content is, for comparing a damaged read with the original. */
const content = (turn: TurnRecord) => JSON.stringify([turn.id, turn.input, turn.status, turn.text ?? null, turn.parentTurnId ?? null]);

async function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`hang: ${what} did not settle within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, hang]);
  } finally {
    clearTimeout(timer);
  }
}

describe(`journal mutations (seed ${random.seed})`, () => {
  it(`${MUTATIONS} damaged journals: all turns, a lost damaged tail, or a typed error; never a silent loss before the damage`, async () => {
    const outcomes = { all: 0, tail: 0, typed: 0 };
    for (let i = 0; i < MUTATIONS; i++) {
      const { bytes, line, kind } = mutate();
      const dir = join(root, `m${i}`);
      const store = fileStore(dir);
      await store.createSession({ id: "s" });
      await writeFile(join(dir, "s.jsonl"), bytes);
      const what = `mutation ${i} (${kind} at line ${line + 1}, seed ${random.seed})`;
      let turns: TurnRecord[];
      try {
        turns = await withTimeout(
          (async () => {
            const chat = createChat({ responder: echo, store });
            await store.listSessions(); // a listing never fails on a damaged journal
            return (await chat.openSession("s")).turns();
          })(),
          5_000,
          what,
        );
      } catch (error) {
        expect(JuneError.isInstance(error), `${what}: an untyped error: ${String(error)}`).toBe(true);
        outcomes.typed++;
        continue;
      }
      const got = turns.map(content);
      const want = originalTurns.map(content);
      if (got.length === want.length && turns.every((turn, k) => turn.id === originalTurns[k]!.id)) {
        outcomes.all++;
        continue;
      }
      // Fewer (or other) turns: only what the damaged line and the lines after it held may be gone.
      const read = await store.read("s");
      expect(read.length, `${what}: entries before the damaged line were lost`).toBeGreaterThanOrEqual(line);
      const intact = originalTurns.filter((turn) => turn.endedAt !== undefined && lineOfTurnEnd(turn) < line);
      for (const turn of intact) expect(got, `${what}: turn ${turn.id}, before the damage, changed or vanished`).toContain(content(turn));
      outcomes.tail++;
    }
    // The campaign exercises every outcome.
    expect(outcomes.typed).toBeGreaterThan(MUTATIONS / 3);
    expect(outcomes.all + outcomes.tail + outcomes.typed).toBe(MUTATIONS);
  }, 120_000);
});

/** The 0-based line of a turn's turn-end in the original journal. */
function lineOfTurnEnd(turn: TurnRecord): number {
  const lines = original.toString("utf8").split("\n");
  return lines.findIndex((text) => text.startsWith('{"type":"turn-end"') && text.includes(`"turnId":"${turn.id}"`));
}
