/**
 * A durable turn that suspended in this handler's process, and a `TurnEventBus` that says where it is now:
 * the handler's copy of it (its events through the `suspended` end) gives way to the bus's turn when that is
 * another process's (one that resumed it), and stays when the bus answers with the copy itself (still this
 * process's) or cannot answer. (The same over real processes and Redis: redis/durable-processes.test.ts.)
 */
import { describe, expect, it } from "vitest";
import { memoryStore, type TurnCommand } from "june/chat";
import { createChatHandler, type ServedTurn, type TurnEventBus } from "june/server";
import type { IndexedTurnStreamEvent } from "../chat/stream/turn-stream-event.js";
import { durableChat } from "../chat/__fixtures__/durable-chat.js";
import { listen, post } from "./__fixtures__/servers.js";
import { sseEvents, type SseEvent } from "./__fixtures__/sse-client.js";

async function events(response: Response): Promise<SseEvent[]> {
  expect(response.status).toBe(200);
  const out: SseEvent[] = [];
  for await (const event of sseEvents(response)) out.push(event);
  return out;
}

/** A bus whose `find` the test decides; it keeps what the handler published. */
function testBus(find: (turnId: string, published: ServedTurn[]) => Promise<ServedTurn | undefined>): TurnEventBus {
  const published: ServedTurn[] = [];
  return {
    publish: async (turn) => void published.push(turn),
    find: (turnId) => find(turnId, published),
    runningTurnId: async () => undefined,
    close: async () => {},
  };
}

/** Another process's turn under the same id: two events, and the commands it was sent. */
function elsewhere(turnId: string, sessionId: string) {
  const commands: TurnCommand[] = [];
  const stream: IndexedTurnStreamEvent[] = [
    { index: 0, event: { type: "turn-start", turnId, sessionId } },
    { index: 1, event: { type: "turn-end", turnId, sessionId, status: "completed", text: "done elsewhere" } },
  ];
  const turn: ServedTurn = {
    id: turnId,
    sessionId,
    async *read(from) {
      yield* stream.slice(from);
    },
    control: async (command) => void commands.push(command),
  };
  return { turn, commands };
}

/** A handler over a durable chat whose first turn suspended; `decide` answers the bus's `find` once it did. */
async function suspendedHere(decide: (turnId: string, published: ServedTurn[]) => Promise<ServedTurn | undefined>) {
  let suspendedTurnId: string | undefined;
  const bus = testBus(async (turnId, published) => (suspendedTurnId === undefined ? undefined : decide(turnId, published)));
  const { chat } = durableChat({ store: memoryStore(), durable: { suspendAfterMs: 30 } });
  const base = await listen(createChatHandler(chat, { turnEvents: bus, keepAliveMs: 0 }));
  await chat.createSession({ id: "s1" });
  const first = await events(await post(`${base}/sessions/s1/turns`, { input: "ship the docs" }));
  expect(first.at(-1)).toMatchObject({ event: "turn-end", data: { status: "suspended" } });
  suspendedTurnId = first[0]!.data.turnId as string;
  return { base, turnId: suspendedTurnId, first };
}

describe("a turn that suspended here, resumed elsewhere", () => {
  it("is served from the bus when the bus names another process's turn: its events, and its controls", async () => {
    let other: ReturnType<typeof elsewhere> | undefined;
    const { base, turnId } = await suspendedHere(async (turnId) => (other ??= elsewhere(turnId, "s1")).turn);
    const replay = await events(await fetch(`${base}/turns/${turnId}/events`));
    expect(replay.map((e) => e.data)).toEqual([
      { type: "turn-start", turnId, sessionId: "s1" },
      { type: "turn-end", turnId, sessionId: "s1", status: "completed", text: "done elsewhere" },
    ]);
    expect((await post(`${base}/sessions/s1/turns/${turnId}/cancel`)).status).toBe(200);
    expect(other!.commands).toEqual([{ type: "cancel" }]);
  });

  it("keeps its own copy when the bus answers with that copy (still this process's), or cannot answer", async () => {
    for (const decide of [
      async (_turnId: string, published: ServedTurn[]) => published[0],
      async () => {
        throw new Error("Redis is away");
      },
    ]) {
      const { base, turnId, first } = await suspendedHere(decide);
      expect(await events(await fetch(`${base}/turns/${turnId}/events`))).toEqual(first);
      // Its copy is the suspended turn: it takes no steer (cancel would end it parked, through the session).
      const steered = await post(`${base}/sessions/s1/turns/${turnId}/steer`, { input: "more" });
      expect({ status: steered.status, name: ((await steered.json()) as { name?: string }).name }).toEqual({ status: 409, name: "TurnEndedError" });
    }
  });
});
