import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createChat, fileStore, type Responder } from "june/chat";
import { createChatHandler } from "june/server";
import { afterEach, describe, expect, it } from "vitest";

const echo: Responder = { respond: ({ input }) => ({ result: Promise.resolve({ text: `re: ${input}` }) }) };

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function setup() {
  const dir = await mkdtemp(join(tmpdir(), "june-corrupt-http-"));
  dirs.push(dir);
  const chat = createChat({ responder: echo, store: fileStore(dir) });
  for (const id of ["good", "dangling", "headless"]) {
    const session = await chat.createSession({ id });
    await session.send("one").result;
    await session.send("two").result;
  }
  // One changed character in the second turn's parentTurnId: valid JSON, valid seq.
  const dangling = join(dir, "dangling.jsonl");
  const text = await readFile(dangling, "utf8");
  await writeFile(dangling, text.replace(/"parentTurnId":"([^"]+)"/, (_, id: string) => `"parentTurnId":"${id.slice(0, -1)}_"`));
  // A journal whose first line is not its session entry: a listing cannot even be read from it.
  const headless = join(dir, "headless.jsonl");
  await writeFile(headless, (await readFile(headless, "utf8")).replace('{"type":"session"', '{"type":"sessiom"'));
  const handler = createChatHandler(createChat({ responder: echo, store: fileStore(dir) }));
  const get = (path: string) => handler(new Request(`http://test.local${path}`));
  return { dir, handler, get };
}

describe("a corrupt journal over HTTP", () => {
  it("answers what is corrupt and where (session, line), never a bare 500 or the file's path", async () => {
    const { dir, handler, get } = await setup();
    const response = await get("/sessions/dangling");
    expect(response.status).toBe(500);
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ name: "JournalCorruptError", sessionId: "dangling", line: 4 });
    expect(body.error).toMatch(/^The journal of session "dangling" is corrupt at line 4: turn-start: `parentTurnId` ".*_" names no earlier turn$/);
    expect(JSON.stringify(body)).not.toContain(dir);

    const turn = await handler(
      new Request("http://test.local/sessions/dangling/turns", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ input: "three" }),
      }),
    );
    expect(turn.status).toBe(500);
    expect(((await turn.json()) as { error: string }).error).toMatch(/corrupt at line 4/);

    const headless = (await (await get("/sessions/headless")).json()) as { error: string };
    expect(headless.error).toMatch(/^The journal of session "headless" is corrupt at line 1: /);
    expect(headless.error).not.toContain(dir);
  });

  it("GET /sessions marks corrupt sessions with where and what, and keeps the good ones as they are", async () => {
    const { get } = await setup();
    await get("/sessions/dangling"); // a read finds what a listing's scan cannot see
    const { sessions } = (await (await get("/sessions")).json()) as { sessions: Record<string, unknown>[] };
    const byId = Object.fromEntries(sessions.map((s) => [s.id, s]));
    expect(byId.good).toMatchObject({ turnCount: 2 });
    expect(byId.good.corrupt).toBeUndefined();
    expect(byId.dangling.corrupt).toEqual({ line: 4, detail: expect.stringMatching(/parentTurnId/) });
    expect(byId.headless.corrupt).toEqual({ line: 1, detail: expect.any(String) });
  });
});
