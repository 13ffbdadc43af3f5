// A turn's files end to end over the library: `session.send({ text, files })` to the model's prompt (the real
// `streamText`, a recording scripted model), the journal's references, later turns' context, refusals.
import { describe, expect, it } from "vitest";
import { scriptedModel } from "june/testing";
import { createChat, FileRejectedError, memoryStore, recentTurns, tokenBudget, type Responder } from "june/chat";
import { PDF, PNG, pngLike, promptFiles } from "./__fixtures__/files.js";

describe("session.send({ text, files })", () => {
  it("reaches the model's prompt byte for byte, as bytes, base64 and a data: URL, in order, after the text", async () => {
    const model = scriptedModel(["Seen."]);
    const chat = createChat({ model, store: memoryStore() });
    const session = await chat.createSession();
    const other = pngLike(300, 7);
    const turn = session.send({
      text: "What is in these?",
      files: [
        { data: PNG, mediaType: "image/png", filename: "dot.png" },
        { data: Buffer.from(PDF).toString("base64"), mediaType: "application/pdf", filename: "a.pdf" },
        { data: `data:image/png;base64,${Buffer.from(other).toString("base64")}`, mediaType: "" },
      ],
    });
    expect((await turn.result).text).toBe("Seen.");
    const prompt = model.doStreamCalls[0]!.prompt;
    const user = prompt.at(-1)!;
    expect(user.role).toBe("user");
    expect((user.content as { type: string }[]).map((part) => part.type)).toEqual(["text", "file", "file", "file"]);
    expect((user.content as { type: string; text?: string }[])[0]!.text).toBe("What is in these?");
    const files = promptFiles(model.doStreamCalls[0]!);
    expect(files.map((f) => [f.mediaType, f.filename])).toEqual([["image/png", "dot.png"], ["application/pdf", "a.pdf"], ["image/png", undefined]]);
    expect(Buffer.from(files[0]!.data).equals(Buffer.from(PNG))).toBe(true);
    expect(Buffer.from(files[1]!.data).equals(Buffer.from(PDF))).toBe(true);
    expect(Buffer.from(files[2]!.data).equals(Buffer.from(other))).toBe(true);
    // The turn and its record name the files by reference; the text stays the input.
    expect(turn.files.map((f) => f.filename)).toEqual(["dot.png", "a.pdf", undefined]);
    const [record] = await session.turns();
    expect(record!.input).toBe("What is in these?");
    expect(record!.files).toEqual(turn.files);
    expect(record!.files![0]).toEqual({ id: record!.files![0]!.sha256, mediaType: "image/png", filename: "dot.png", size: PNG.byteLength, sha256: record!.files![0]!.sha256 });
    const read = await session.file(record!.files![0]!.id);
    expect(read?.ref).toEqual(record!.files![0]);
    expect(Buffer.from(read!.bytes).equals(Buffer.from(PNG))).toBe(true);
    expect(await session.file("0".repeat(64))).toBeUndefined();
  });

  it("sends an earlier turn's file again in a later turn's context, and a turn of files alone is a turn", async () => {
    const model = scriptedModel(["One.", "Two.", "Three."]);
    const session = await createChat({ model, store: memoryStore() }).createSession();
    await session.send({ text: "", files: [{ data: PNG, mediaType: "image/png" }] }).result;
    await session.send("And now?").result;
    await session.send("Still?").result;
    // The first turn's prompt: the file alone, no text part.
    expect(model.doStreamCalls[0]!.prompt.at(-1)!.content).toEqual([{ type: "file", data: PNG, mediaType: "image/png" }]);
    for (const call of model.doStreamCalls.slice(1)) {
      const files = promptFiles(call);
      expect(files).toHaveLength(1);
      expect(Buffer.from(files[0]!.data).equals(Buffer.from(PNG))).toBe(true);
    }
    // What session.messages() gives: the file with its bytes, never a placeholder.
    const messages = await session.messages();
    expect(messages[0]).toEqual({ role: "user", content: [{ type: "file", data: PNG, mediaType: "image/png" }] });
  });

  it("gives a custom responder the files beside the input, and the user message to send", async () => {
    const seen: unknown[] = [];
    const responder: Responder = {
      respond({ input, files, message }) {
        seen.push({ input, files: files?.map((f) => [f.mediaType, f.data.byteLength]), message });
        return { result: Promise.resolve({ text: "ok" }) };
      },
    };
    const session = await createChat({ responder, store: memoryStore() }).createSession();
    await session.send({ text: "look", files: [{ data: PDF, mediaType: "application/pdf", filename: "a.pdf" }] }).result;
    await session.send("plain").result;
    expect(seen).toEqual([
      { input: "look", files: [["application/pdf", PDF.byteLength]], message: { role: "user", content: [{ type: "text", text: "look" }, { type: "file", data: PDF, mediaType: "application/pdf", filename: "a.pdf" }] } },
      { input: "plain", files: undefined, message: { role: "user", content: "plain" } },
    ]);
  });

  it("regenerates a turn with its files", async () => {
    const model = scriptedModel(["A.", "B."]);
    const session = await createChat({ model, store: memoryStore() }).createSession();
    const first = session.send({ text: "this", files: [{ data: PNG, mediaType: "image/png" }] });
    await first.result;
    const again = session.regenerate();
    await again.result;
    expect(again.files).toEqual(first.files);
    expect(Buffer.from(promptFiles(model.doStreamCalls[1]!)[0]!.data).equals(Buffer.from(PNG))).toBe(true);
  });
});

describe("the context policies and files", () => {
  it("recentTurns sends the files of the turns it keeps; tokenBudget counts them and leaves them out when they do not fit, saying so", async () => {
    const recent = scriptedModel(["1", "2", "3"]);
    const r = await createChat({ model: recent, store: memoryStore(), context: recentTurns(1) }).createSession();
    await r.send({ text: "a", files: [{ data: PNG, mediaType: "image/png" }] }).result;
    await r.send("b").result;
    await r.send("c").result;
    expect(promptFiles(recent.doStreamCalls[1]!)).toHaveLength(1);
    expect(promptFiles(recent.doStreamCalls[2]!)).toHaveLength(0);

    // An image counts 1,600 tokens: with room for it, it goes; with room for the text only, the text goes alone.
    for (const [maxTokens, sent] of [[5_000, 1], [100, 0]] as const) {
      const model = scriptedModel(["seen", "next"]);
      const session = await createChat({ model, store: memoryStore(), context: tokenBudget({ maxTokens }) }).createSession();
      const first = session.send({ text: "look at this", files: [{ data: PNG, mediaType: "image/png" }] });
      await first.result;
      await session.send("and?").result;
      expect(promptFiles(model.doStreamCalls[1]!)).toHaveLength(sent);
      const [, second] = await session.turns();
      expect(second!.context!.filesLeftOut).toEqual(sent === 0 ? [first.files[0]!.id] : undefined);
      // The earlier turn's text went either way.
      expect(JSON.stringify(model.doStreamCalls[1]!.prompt)).toContain("look at this");
    }
  });
});

describe("a refused file", () => {
  async function refused(files: { data: Uint8Array | string; mediaType: string; filename?: string }[], options: Parameters<typeof createChat>[0]["files"] = undefined) {
    const model = scriptedModel(["never"]);
    const store = memoryStore();
    const chat = createChat({ model, store, ...(options !== undefined ? { files: options } : {}) });
    const session = await chat.createSession();
    let error: unknown;
    try {
      session.send({ text: "here", files });
    } catch (e) {
      error = e;
    }
    // Nothing started, nothing journaled, nothing stored, no model call.
    expect(session.currentTurn).toBeUndefined();
    expect(await session.turns()).toEqual([]);
    expect(model.callCount).toBe(0);
    for (const file of files) {
      if (file.data instanceof Uint8Array) {
        const id = (await import("node:crypto")).createHash("sha256").update(file.data).digest("hex");
        expect(await store.getFile!(session.id, id)).toBeUndefined();
      }
    }
    expect(FileRejectedError.isInstance(error)).toBe(true);
    return error as FileRejectedError;
  }

  it("is too large past files.maxBytes (413), naming the file", async () => {
    const error = await refused([{ data: PNG, mediaType: "image/png" }, { data: pngLike(2000), mediaType: "image/png", filename: "big.png" }], { maxBytes: 1000 });
    expect([error.reason, error.status, error.index, error.filename]).toEqual(["too-large", 413, 1, "big.png"]);
    expect(error.message).toContain('"big.png"');
    expect(error.message).toContain("2000 bytes");
  });

  it("is too large past the default 10 MiB", async () => {
    const error = await refused([{ data: pngLike(10 * 1024 * 1024 + 1), mediaType: "image/png", filename: "huge.png" }]);
    expect([error.reason, error.status]).toEqual(["too-large", 413]);
  });

  it("is one too many past files.maxFiles (413)", async () => {
    const error = await refused([{ data: PNG, mediaType: "image/png" }, { data: PNG, mediaType: "image/png" }], { maxFiles: 1 });
    expect([error.reason, error.status, error.index]).toEqual(["too-many", 413, -1]);
  });

  it("is a type not allowed (415): by default, and past files.mediaTypes", async () => {
    const zip = await refused([{ data: new Uint8Array([0x50, 0x4b, 3, 4]), mediaType: "application/zip", filename: "a.zip" }]);
    expect([zip.reason, zip.status, zip.filename]).toEqual(["type-not-allowed", 415, "a.zip"]);
    const pdf = await refused([{ data: PDF, mediaType: "application/pdf" }], { mediaTypes: ["image/*"] });
    expect([pdf.reason, pdf.status]).toEqual(["type-not-allowed", 415]);
  });

  it("is malformed (400): bytes that are not the declared image, a bad data: URL, bad base64, text that is not UTF-8", async () => {
    const fake = await refused([{ data: PDF, mediaType: "image/png", filename: "not.png" }]);
    expect([fake.reason, fake.status, fake.filename]).toEqual(["malformed", 400, "not.png"]);
    expect(fake.message).toContain("not image/png");
    const jpeg = await refused([{ data: PNG, mediaType: "image/jpeg" }]);
    expect(jpeg.reason).toBe("malformed");
    const url = await refused([{ data: "data:image/png;base64,@@@", mediaType: "image/png" }]);
    expect([url.reason, url.status]).toEqual(["malformed", 400]);
    const mismatch = await refused([{ data: `data:image/gif;base64,${Buffer.from(PNG).toString("base64")}`, mediaType: "image/png" }]);
    expect(mismatch.reason).toBe("malformed");
    const base64 = await refused([{ data: "not base64!", mediaType: "image/png" }]);
    expect(base64.reason).toBe("malformed");
    const text = await refused([{ data: new Uint8Array([0xff, 0xfe, 0xfd]), mediaType: "text/plain" }]);
    expect(text.reason).toBe("malformed");
  });

  it("is a remote URL (400): the library never fetches one", async () => {
    const error = await refused([{ data: "https://example.com/cat.png", mediaType: "image/png" }]);
    expect([error.reason, error.status]).toEqual(["url", 400]);
  });

  it("keeps the text's own checks: an empty turn with no file is a TypeError", async () => {
    const session = await createChat({ model: scriptedModel([]), store: memoryStore() }).createSession();
    expect(() => session.send({ text: "" })).toThrow(TypeError);
    expect(() => session.send({ text: "", files: [] })).toThrow(TypeError);
    expect(() => session.send({ files: [] } as never)).toThrow(/input.text must be a string/);
    expect(() => createChat({ model: scriptedModel([]), files: { maxBytes: -1 } })).toThrow(/files.maxBytes/);
  });
});

describe("learning's cases", () => {
  it("carry the turn's files as references beside its input", async () => {
    const { sessionCases } = await import("../../learning/dataset.js");
    const session = await createChat({ model: scriptedModel(["ok"]), store: memoryStore() }).createSession();
    const turn = session.send({ text: "see", files: [{ data: PNG, mediaType: "image/png", filename: "p.png" }] });
    await turn.result;
    const [evalCase] = sessionCases(session.id, await session.turns());
    expect(evalCase!.input).toBe("see");
    expect(evalCase!.files).toEqual(turn.files);
    expect(JSON.stringify(evalCase)).not.toContain(Buffer.from(PNG).toString("base64"));
  });
});
