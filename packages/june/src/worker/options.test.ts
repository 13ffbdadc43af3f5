// What the worker's parts refuse before anything connects: runs on every Node (pg-boss is never loaded here,
// except to say it needs a newer Node).
import { describe, expect, it } from "vitest";
import { createChat } from "june/chat";
import { scriptedModel } from "june/testing";
import { createWorker, pgBossQueue, QueueUnavailableError } from "june/worker";
import { scheduleJobId, turnJobId } from "./job-ids.js";
import { createChatHandler } from "../server/index.js";
import { listen } from "../server/__fixtures__/servers.js";

const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
const modernNode = major > 22 || (major === 22 && minor >= 12);

describe("june/worker's options", () => {
  it("pgBossQueue refuses a missing connection string, a bad schema and a take-over under 10 s", () => {
    expect(() => pgBossQueue({ connectionString: "" })).toThrow(/connectionString/);
    expect(() => pgBossQueue({ connectionString: "postgres://x/y", schema: "bad-schema;" })).toThrow(/schema/);
    expect(() => pgBossQueue({ connectionString: "postgres://x/y", takeOverAfterMs: 5000 })).toThrow(/10000 or more/);
  });

  it("createWorker refuses a chat, queue, concurrency or takeOverAfterMs it cannot use; createChat a queue that is not one", () => {
    const queue = pgBossQueue({ connectionString: "postgres://127.0.0.1:1/none" });
    const chat = createChat({ model: scriptedModel([]), queue });
    expect(() => createWorker({ chat, queue: {} as never })).toThrow(/queue/);
    expect(() => createWorker({ chat: {} as never, queue })).toThrow(/chat/);
    expect(() => createWorker({ chat, queue, concurrency: 0 })).toThrow(/concurrency/);
    expect(() => createWorker({ chat, queue, takeOverAfterMs: 9999 })).toThrow(/takeOverAfterMs/);
    expect(() => createChat({ model: scriptedModel([]), queue: { enqueue() {} } as never })).toThrow(/createChat\(\{ queue \}\)/);
  });

  it("a turn's job id is its id when that is a UUID, else the same UUID for the same turn", () => {
    const uuid = "3f2a0b6f-1c2d-4e5f-8a9b-0c1d2e3f4a5b";
    expect(turnJobId("s", uuid.toUpperCase())).toBe(uuid);
    expect(turnJobId("s", "t-1")).toBe(turnJobId("s", "t-1"));
    expect(turnJobId("s", "t-1")).not.toBe(turnJobId("s2", "t-1"));
    expect(turnJobId("s", "t-1")).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(scheduleJobId("weekly")).not.toBe(turnJobId("s", "weekly"));
  });

  it("GET /schedules of a chat without a queue lists none and says it has no queue", async () => {
    const base = await listen(createChatHandler(createChat({ model: scriptedModel([]) })));
    const answer = await fetch(`${base}/schedules`);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ schedules: [], queue: false });
  });

  it.skipIf(modernNode)("on a Node older than 22.12, a queue says pg-boss 12 needs a newer one", async () => {
    const chat = createChat({ model: scriptedModel([]), queue: pgBossQueue({ connectionString: "postgres://127.0.0.1:5432/test" }) });
    const error = await (await chat.createSession()).enqueue("hi").catch((e: unknown) => e);
    expect(QueueUnavailableError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(/needs Node 22\.12 or newer/);
  });
});
