// A turn's files on the wire: through the real `streamText` and the real OpenAI provider package to June's fake
// OpenAI server (a real HTTP server), whose recorded request bodies must carry each file's bytes exactly.
import { afterEach, describe, expect, it } from "vitest";
import { createOpenAI } from "june/sdk/openai";
import { createChat, memoryStore } from "june/chat";
import { createFakeOpenAIServer, type FakeOpenAIServer } from "../../testing/fake-openai-server.js";
import { PDF, pngLike } from "./__fixtures__/files.js";

let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("files through the OpenAI provider", () => {
  it("sends the image and the PDF byte for byte in the turn that sent them and in the next turn", async () => {
    server = await createFakeOpenAIServer({ script: ["A picture and a PDF.", "Yes, still."] });
    const model = createOpenAI({ baseURL: server.url, apiKey: "sk-test" })("gpt-5-mini");
    const session = await createChat({ model, store: memoryStore() }).createSession();
    const image = pngLike(1500, 3);
    await session.send({ text: "What are these?", files: [{ data: image, mediaType: "image/png" }, { data: PDF, mediaType: "application/pdf", filename: "a.pdf" }] }).result;
    await session.send("Still there?").result;
    expect(server.requests).toHaveLength(2);
    for (const request of server.requests) {
      const body = JSON.stringify(request.body);
      expect(body).toContain(Buffer.from(image).toString("base64"));
      expect(body).toContain(Buffer.from(PDF).toString("base64"));
    }
  });
});
