// A turn's files kept beside the journal, never in it, on real stores: a fileStore folder and a SQLite file.
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { scriptedModel } from "june/testing";
import { createChat, fileStore, sqliteStore, type ChatStore } from "june/chat";
import { pngLike, promptFiles } from "./__fixtures__/files.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "june-files-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Every file under `root`, its path and bytes. */
async function allFiles(root: string): Promise<{ path: string; bytes: Buffer }[]> {
  const out: { path: string; bytes: Buffer }[] = [];
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    out.push({ path, bytes: await readFile(path) });
  }
  return out;
}

const stores: [string, () => ChatStore][] = [
  ["fileStore", () => fileStore(join(dir, "chat"))],
  ["sqliteStore", () => sqliteStore({ path: join(dir, "chat.db") })],
];

describe.each(stores)("%s", (_name, makeStore) => {
  it("keeps the bytes in the store, only a reference in the journal, and a reopened session in a new chat sends the file again", async () => {
    const image = pngLike(4096, 11);
    const marker = Buffer.from(image.subarray(100, 164));
    const first = scriptedModel(["A red square."]);
    const store = makeStore();
    const session = await createChat({ model: first, store }).createSession();
    const turn = session.send({ text: "What is this?", files: [{ data: image, mediaType: "image/png", filename: "square.png" }] });
    await turn.result;
    // The journal (every entry as read back) names the file, and never holds its bytes, raw or as base64.
    const entries = await store.read(session.id);
    const journal = JSON.stringify(entries);
    expect(journal).toContain(turn.files[0]!.sha256);
    expect(journal).not.toContain(Buffer.from(image).toString("base64").slice(0, 200));
    expect(journal).not.toContain(marker.toString("base64"));
    // The store has them.
    expect(Buffer.from((await store.getFile!(session.id, turn.files[0]!.id))!.bytes).equals(Buffer.from(image))).toBe(true);
    await store.close?.();

    const second = scriptedModel(["Still a red square."]);
    const reopened = await createChat({ model: second, store: makeStore() }).openSession(session.id);
    const [record] = await reopened.turns();
    expect(record!.files).toEqual(turn.files);
    await reopened.send("And its colour?").result;
    const sent = promptFiles(second.doStreamCalls[0]!);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.filename).toBe("square.png");
    expect(Buffer.from(sent[0]!.data).equals(Buffer.from(image))).toBe(true);
  });

  it("deleting the session leaves no byte of its files", async () => {
    const image = pngLike(4096, 23);
    const marker = Buffer.from(image.subarray(200, 264));
    const store = makeStore();
    const chat = createChat({ model: scriptedModel(["ok"]), store });
    const session = await chat.createSession();
    await session.send({ text: "keep", files: [{ data: image, mediaType: "image/png" }] }).result;
    const before = await allFiles(dir);
    expect(before.some((file) => file.bytes.includes(marker))).toBe(true);
    expect(await chat.deleteSession(session.id)).toBe(true);
    await store.close?.();
    const after = await allFiles(dir);
    expect(after.filter((file) => file.bytes.includes(marker)).map((file) => file.path)).toEqual([]);
  });
});

describe("fileStore", () => {
  it("keeps a session's files in its own folder, one copy for the same bytes, and none of them in the journal file", async () => {
    const root = join(dir, "chat");
    const image = pngLike(2048, 5);
    const marker = Buffer.from(image.subarray(64, 128));
    const chat = createChat({ model: scriptedModel(["1", "2"]), store: fileStore(root) });
    const session = await chat.createSession();
    await session.send({ text: "one", files: [{ data: image, mediaType: "image/png", filename: "a.png" }] }).result;
    await session.send({ text: "two", files: [{ data: Buffer.from(image).toString("base64"), mediaType: "image/png", filename: "b.png" }] }).result;
    const files = await allFiles(root);
    const journal = files.find((file) => file.path.endsWith(".jsonl"))!;
    expect(journal.bytes.includes(marker)).toBe(false);
    expect(journal.bytes.toString("utf8")).not.toContain(marker.toString("base64"));
    const holding = files.filter((file) => file.bytes.includes(marker)).map((file) => file.path.slice(root.length + 1));
    expect(holding).toEqual([`${session.id}.files/${(await session.turns())[0]!.files![0]!.sha256}`]);
    // The files' folder is no session of its own.
    expect((await chat.listSessions()).map((info) => [info.id, info.turnCount])).toEqual([[session.id, 2]]);
  });
});
