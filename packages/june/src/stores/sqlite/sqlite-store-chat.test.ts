import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createChat } from "june/chat";
import { sqliteStore } from "june/chat";
import { scriptedModel } from "june/testing";
import { afterAll, describe, expect, it } from "vitest";

const root = mkdtempSync(join(tmpdir(), "june-sqlite-chat-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("createChat on sqliteStore", () => {
  it("journals a model turn, and a chat on the reopened file continues the session", async () => {
    const path = join(root, "chat.db");
    const first = sqliteStore(path);
    const model = scriptedModel({ text: ["Hello, ", "Ada!"] });
    const chat = createChat({ model, store: first, version: "v1" });
    const session = await chat.createSession({ metadata: { user: "ada" } });
    const { text, metadata } = await session.send("Hi, I am Ada").result;
    expect(text).toBe("Hello, Ada!");
    expect(metadata.responder).toMatchObject({ kind: "model", version: "v1" });
    const [info] = await chat.listSessions();
    expect(info).toMatchObject({ id: session.id, title: "Hi, I am Ada", turnCount: 1, metadata: { user: "ada" } });
    await first.close();

    const second = sqliteStore(path);
    try {
      const next = scriptedModel("Ada, you said hi.");
      const again = await createChat({ model: next, store: second }).openSession(session.id);
      const [earlier] = await again.turns();
      expect(earlier).toMatchObject({ input: "Hi, I am Ada", status: "completed", text: "Hello, Ada!" });
      expect(await again.send("What is my name?").result).toMatchObject({ text: "Ada, you said hi." });
      // The second model call saw the first turn, read back from the file.
      const prompt = JSON.stringify(next.doStreamCalls[0]!.prompt);
      expect(prompt).toContain("Hi, I am Ada");
      expect(prompt).toContain("Hello, Ada!");
      const entries = await second.read(session.id);
      expect(entries.map((e) => e.type)).toEqual(["session", "turn-start", "turn-end", "turn-start", "turn-end"]);
      expect(entries.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5]);
      expect(await second.getSession(session.id)).toMatchObject({ turnCount: 2, title: "Hi, I am Ada" });
    } finally {
      await second.close();
    }
  });
});
