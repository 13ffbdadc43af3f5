import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { Agent, Step } from "../index.js";
import { createFakeIO } from "../cli/__fixtures__/fake-io.js";
import { runCli } from "../cli/main.js";
import { scriptedModel } from "../testing/index.js";
import { turnStream } from "./stream/turn-stream.js";
import { agentResponder, createChat, fileStore, toUIMessages, type Chat, type Turn } from "./index.js";

/**
 * A canceled turn keeps the reply it streamed until then, cut where it stopped: in the journal, the
 * stream's `turn-end`, `toUIMessages` and `june sessions show`; the next turn's context leaves it out,
 * as it leaves out every turn that did not complete.
 */

const root = mkdtempSync(join(tmpdir(), "june-canceled-reply-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;

const WORDS = Array.from({ length: 200 }, (_, i) => ({ text: `w${i} `, delay: 10 }));

/** Reads the turn's events, cancels it after `after` text deltas, and returns every delta it streamed. */
async function cancelAfter(turn: Turn, after: number): Promise<string> {
  let streamed = "";
  let deltas = 0;
  for await (const event of turn) {
    if (event.type !== "text-delta") continue;
    streamed += event.text;
    if (++deltas === after) turn.cancel();
  }
  await expect(turn.result).rejects.toMatchObject({ name: "CanceledError" });
  expect(turn.status).toBe("canceled");
  return streamed;
}

const chats: Record<string, (model: ReturnType<typeof scriptedModel>, dir: string) => Chat> = {
  modelResponder: (model, dir) => createChat({ model, store: fileStore(dir) }),
  agentResponder: (model, dir) =>
    createChat({
      store: fileStore(dir),
      responder: agentResponder({
        id: "writer",
        version: "1",
        render: ({ messages, input }) => (
          <Agent model={model}>
            <Step id="reply" stream prompt={[...messages, { role: "user", content: input }]} />
          </Agent>
        ),
        reply: (result) => String(result.steps.reply),
        stream: { step: "reply" },
      }),
    }),
};

describe.each(Object.keys(chats))("a canceled turn of a %s chat", (kind) => {
  it("keeps the text it streamed, journaled canceled; the next turn's context leaves it out", async () => {
    const dir = join(root, `d${n++}`);
    const model = scriptedModel([{ text: WORDS }, "Fresh start."]);
    const chat = chats[kind]!(model, dir);
    const session = await chat.createSession({ id: "s1" });
    const streamed = await cancelAfter(session.send("Write a lot"), 5);
    expect(streamed.startsWith("w0 w1 w2 w3 w4 ")).toBe(true);
    expect(streamed).not.toContain("w199");

    // Read back by another process: the reply as far as it streamed, cut.
    const reread = await createChat({ model: scriptedModel([]), store: fileStore(dir) }).openSession("s1");
    const [record] = await reread.turns();
    expect(record).toMatchObject({ status: "canceled", text: streamed });
    expect(toUIMessages([record!])[1]).toEqual({
      id: record!.id,
      role: "assistant",
      metadata: { turnStatus: "canceled" },
      parts: [{ type: "text", text: streamed, state: "done" }],
    });

    // Not in the next turn's context: neither the cut reply nor the input it answered.
    expect(JSON.stringify(await session.messages())).not.toContain("w0");
    const next = session.send("Start over");
    await expect(next.result).resolves.toMatchObject({ text: "Fresh start." });
    const prompt = JSON.stringify(model.doStreamCalls[1]!.prompt);
    expect(prompt).toContain("Start over");
    expect(prompt).not.toContain("Write a lot");
    expect(prompt).not.toContain("w0");

    // june sessions show: the cut reply, marked.
    const io = createFakeIO({ cwd: root });
    expect(await runCli({ argv: ["sessions", "show", "s1", "--store", dir], io })).toBe(0);
    expect(io.stdoutText()).toBe(`› Write a lot\n${streamed} [canceled: cut short]\n\n› Start over\nFresh start.\n`);
  });

  it("its stream's turn-end carries the text streamed, as the stream sent it", async () => {
    const model = scriptedModel([{ text: WORDS }]);
    const chat = chats[kind]!(model, join(root, `d${n++}`));
    const session = await chat.createSession();
    const turn = session.send("Write a lot");
    let shown = "";
    let deltas = 0;
    let end: unknown;
    for await (const { event } of turnStream(turn)) {
      if (event.type === "text-delta") {
        shown += event.text;
        if (++deltas === 3) turn.cancel();
      }
      if (event.type === "turn-end") end = event;
    }
    expect(shown).not.toBe("");
    expect(end).toEqual({ type: "turn-end", turnId: turn.id, sessionId: session.id, status: "canceled", text: shown });
    const [record] = await session.turns();
    expect(record!.text).toBe(shown);
  });
});

describe("a turn canceled before it streamed anything", () => {
  it("has no text: its turn-end says canceled, nothing more", async () => {
    const model = scriptedModel([{ text: [{ text: "late", delay: 5_000 }] }]);
    const chat = createChat({ model, store: fileStore(join(root, `d${n++}`)) });
    const session = await chat.createSession();
    const turn = session.send("Hello");
    const ended: unknown[] = [];
    const reading = (async () => {
      for await (const { event } of turnStream(turn)) if (event.type === "turn-end") ended.push(event);
    })();
    turn.cancel();
    await reading;
    expect(ended).toEqual([{ type: "turn-end", turnId: turn.id, sessionId: session.id, status: "canceled" }]);
    const [record] = await session.turns();
    expect(record).toMatchObject({ status: "canceled" });
    expect(record!.text).toBeUndefined();
  });
});
