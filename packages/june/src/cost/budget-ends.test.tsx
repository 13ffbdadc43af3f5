import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { Agent, RunError, Step } from "june";
import { agentResponder, createChat, type ChatStore, type Responder } from "june/chat";
import { scriptedModel } from "june/testing";
import { fileStore } from "../stores/file-store.js";
import { memoryStore } from "../stores/memory-store.js";
import { sqliteStore } from "../stores/sqlite/sqlite-store.js";
import { BudgetExceededError } from "./errors.js";

const dir = mkdtempSync(join(tmpdir(), "june-budget-ends-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let made = 0;
const stores: [string, () => ChatStore][] = [
  ["memoryStore", () => memoryStore()],
  ["fileStore", () => fileStore(join(dir, String(++made)))],
  ["sqliteStore", () => sqliteStore(join(dir, `${String(++made)}.db`))],
];
const SPEND = { inputTokens: 60, outputTokens: 60 };
const blockAll = { name: "no-replies", check: () => "nothing may be said" };

/** A session with a 100-token budget: its first turn (made by `first`) spends 120 and ends unfinished; the second must be refused. */
async function secondIsRefused(store: ChatStore, make: (model: ReturnType<typeof scriptedModel>) => Parameters<typeof createChat>[0], status: string) {
  const model = scriptedModel(() => ({ text: "Spent.", usage: SPEND }));
  const chat = createChat({ ...make(model), store, budget: { session: { tokens: 100 } } });
  const session = await chat.createSession();
  const first = session.send("one");
  await first.result.catch(() => {});
  const [record] = await session.turns();
  expect(record!.status).toBe(status);
  expect(record!.metadata?.usage?.totalTokens).toBe(120);
  expect(await session.cost()).toEqual({ tokens: 120 });
  const calls = model.callCount;
  const failure = await session.send("two").result.catch((e: unknown) => e);
  // An agent turn's run fails with the budget's error as its cause.
  const error = RunError.isInstance(failure) ? failure.cause : failure;
  expect(BudgetExceededError.isInstance(error)).toBe(true);
  expect(error).toMatchObject({ scope: "session", spent: { tokens: 120 } });
  expect(model.callCount).toBe(calls);
  // Read back from the store by a new chat: what the turn spent was journaled.
  const reopened = await createChat({ ...make(model), store }).openSession(session.id);
  expect((await reopened.cost()).tokens).toBe(120);
}

describe("a session budget counts every turn's known spend, however it ended", () => {
  for (const [name, make] of stores) {
    it(`${name}: a model turn blocked by a held output guardrail after its model call`, async () => {
      await secondIsRefused(make(), (model) => ({ model, guardrails: { output: [blockAll] } }), "blocked");
    });

    it(`${name}: an agent turn blocked by an output guardrail after its run`, async () => {
      const responder = (model: ReturnType<typeof scriptedModel>): Responder =>
        agentResponder({
          render: ({ input }) => (
            <Agent model={model}>
              <Step id="reply" prompt={input} />
            </Agent>
          ),
          reply: (run) => String(run.steps.reply),
        });
      await secondIsRefused(make(), (model) => ({ responder: responder(model), guardrails: { output: [{ ...blockAll, stream: "end" }] } }), "blocked");
    });

    it(`${name}: an agent turn whose step fails after its model call spent`, async () => {
      const responder = (model: ReturnType<typeof scriptedModel>): Responder =>
        agentResponder({
          render: ({ input }) => (
            <Agent model={model}>
              <Step id="reply" prompt={input} />
              <Step id="check" run={() => Promise.reject(new Error("the check step broke"))} />
            </Agent>
          ),
          reply: (run) => String(run.steps.reply),
        });
      await secondIsRefused(make(), (model) => ({ responder: responder(model) }), "failed");
    });
  }
});
