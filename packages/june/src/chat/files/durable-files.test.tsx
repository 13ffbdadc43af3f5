// A durable turn whose context holds a file: its checkpoint keeps the file's reference, never its bytes, and a
// resume in another chat sends the bytes again.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { fileStore, TurnSuspendedError, type Turn } from "june/chat";
import { durableChat } from "../__fixtures__/durable-chat.js";
import { pngLike, promptFiles } from "./__fixtures__/files.js";

const root = mkdtempSync(join(tmpdir(), "june-durable-files-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function firstRequest(turn: Turn) {
  for await (const event of turn) if (event.type === "approval-request") return event.request;
  throw new Error("the turn ended without asking");
}

describe("a durable turn with files", () => {
  it("checkpoints the files as references and sends their bytes again on resume", async () => {
    const image = pngLike(3000, 31);
    const store = fileStore(join(root, "chat"));
    const one = durableChat({ store, unstreamed: true, durable: { suspendAfterMs: 50 } });
    const session = await one.chat.createSession({ id: "f1" });
    // The first turn sends the file; it asks, and is approved here.
    const first = session.send({ text: "ship the docs", files: [{ data: image, mediaType: "image/png", filename: "shot.png" }] });
    first.approve((await firstRequest(first)).id);
    await first.result;
    // The second turn's context holds the file; it asks and suspends with a checkpoint.
    const second = session.send("ship again");
    await firstRequest(second);
    expect(await second.result.catch((e: unknown) => e)).toBeInstanceOf(TurnSuspendedError);
    const [checkpoint] = await store.listCheckpoints!("f1");
    expect(checkpoint!.data).toContain(`june-file:${first.files[0]!.id}`);
    expect(checkpoint!.data).not.toContain(Buffer.from(image).toString("base64").slice(0, 100));
    expect(checkpoint!.data).not.toContain('"0":137');
    expect(checkpoint!.data.length).toBeLessThan(image.byteLength);

    const two = durableChat({ store: fileStore(join(root, "chat")), unstreamed: true });
    const again = await two.chat.openSession("f1");
    const live = await again.resume(second.id);
    live.approve(live.requests[0]!.id);
    await live.result;
    // The answer call after the resume got the file's bytes.
    const answer = two.model.doStreamCalls.at(-2)!; // the "work" step's answer call (the "reply" step's is the last)
    const files = promptFiles(answer);
    expect(files).toHaveLength(1);
    expect(Buffer.from(files[0]!.data).equals(Buffer.from(image))).toBe(true);
  });
});
