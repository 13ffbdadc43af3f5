import { createAnthropic } from "june/sdk/anthropic";
import { createGoogleGenerativeAI } from "june/sdk/google";
import { createOpenAI } from "june/sdk/openai";
import { streamText, type LanguageModel, type ModelMessage } from "ai";
import { afterEach, describe, expect, it } from "vitest";
import { createFakeAnthropicServer } from "./fake-anthropic-server.js";
import { createFakeGoogleServer } from "./fake-google-server.js";
import { createFakeOpenAIServer } from "./fake-openai-server.js";
import { anthropicFiles, googleFiles, openAIFiles } from "./fake-provider-files.js";
import type { FakeModelRequest } from "./fake-provider-http.js";

/** A 1x1 PNG, and bytes that are not valid UTF-8 (every byte value once), so a lossy step would show. */
const PNG = Uint8Array.from(
  Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64"),
);
const PDF = Uint8Array.from([...Buffer.from("%PDF-1.4\n"), ...Array.from({ length: 256 }, (_, i) => i)]);

interface Fake {
  url: string;
  requests: readonly FakeModelRequest[];
  close(): Promise<void>;
}
interface Case {
  name: string;
  start(): Promise<Fake>;
  model(url: string): LanguageModel;
  /** The wire's part names for the image and the PDF. */
  parts: [string, string];
  /** Whether the wire carries the PDF's file name. */
  filename: boolean;
}

const cases: Case[] = [
  {
    name: "OpenAI Responses",
    start: () => createFakeOpenAIServer({ script: () => "Seen." }),
    model: (url) => createOpenAI({ baseURL: url, apiKey: "sk-test" })("gpt-5-mini"),
    parts: ["input_image", "input_file"],
    filename: true,
  },
  {
    name: "OpenAI Chat Completions",
    start: () => createFakeOpenAIServer({ script: () => "Seen." }),
    model: (url) => createOpenAI({ baseURL: url, apiKey: "sk-test" }).chat("gpt-5-mini"),
    parts: ["image_url", "file"],
    filename: true,
  },
  {
    name: "Anthropic Messages",
    start: () => createFakeAnthropicServer({ script: () => "Seen." }),
    model: (url) => createAnthropic({ baseURL: url, apiKey: "sk-ant-test" })("claude-sonnet-4-5"),
    parts: ["image", "document"],
    filename: true,
  },
  {
    name: "Gemini",
    start: () => createFakeGoogleServer({ script: () => "Seen." }),
    model: (url) => createGoogleGenerativeAI({ baseURL: url, apiKey: "google-test" })("gemini-2.5-flash"),
    parts: ["inlineData", "inlineData"],
    filename: false,
  },
];

let fake: Fake | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const prompt = (): ModelMessage[] => [
  {
    role: "user",
    content: [
      { type: "text", text: "What is in these?" },
      { type: "file", data: PNG, mediaType: "image/png" },
      { type: "file", data: PDF, mediaType: "application/pdf", filename: "brief.pdf" },
    ],
  },
];

describe.each(cases)("$name: the fake server records the files the real provider package sent", (c) => {
  it("an image and a PDF reach the wire byte for byte, in order, with their media types", async () => {
    fake = await c.start();
    const result = streamText({ model: c.model(fake.url), messages: prompt() });
    expect(await result.text).toBe("Seen.");
    const [request] = fake.requests;
    expect(request!.files.map((f) => [f.type, f.part, f.role, f.mediaType])).toEqual([
      ["inline", c.parts[0], "user", "image/png"],
      ["inline", c.parts[1], "user", "application/pdf"],
    ]);
    const [image, pdf] = request!.files;
    expect(image!.type === "inline" && Buffer.from(image.data).equals(Buffer.from(PNG))).toBe(true);
    expect(pdf!.type === "inline" && Buffer.from(pdf.data).equals(Buffer.from(PDF))).toBe(true);
    expect(pdf!.filename).toBe(c.filename ? "brief.pdf" : undefined);
  });

  it("an earlier turn's image is sent again with the next request, and a text-only request records none", async () => {
    fake = await c.start();
    const first = streamText({ model: c.model(fake.url), prompt: "No files here." });
    await first.text;
    const messages: ModelMessage[] = [...prompt(), { role: "assistant", content: "Seen." }, { role: "user", content: "And now?" }];
    await streamText({ model: c.model(fake.url), messages }).text;
    expect(fake.requests[0]!.files).toEqual([]);
    expect(fake.requests[1]!.files).toHaveLength(2);
  });
});

describe("the wire readers on their own", () => {
  it("keep a URL or a provider file id as a reference, and decode a non-base64 data URL", () => {
    expect(
      openAIFiles({
        input: [
          { role: "user", content: [{ type: "input_image", image_url: "https://example.com/cat.png" }, { type: "input_file", file_id: "file-abc" }] },
        ],
      }),
    ).toEqual([
      { type: "reference", reference: "https://example.com/cat.png", part: "input_image", role: "user" },
      { type: "reference", reference: "file-abc", part: "input_file", role: "user" },
    ]);
    const [text] = openAIFiles({ messages: [{ role: "user", content: [{ type: "file", file: { file_data: "data:text/plain,caf%C3%A9", filename: "a.txt" } }] }] });
    expect(text).toMatchObject({ type: "inline", mediaType: "text/plain", filename: "a.txt" });
    expect(new TextDecoder().decode((text as { data: Uint8Array }).data)).toBe("café");
  });

  it("read Anthropic text documents and tool-result images, and Gemini fileData", () => {
    const files = anthropicFiles({
      messages: [
        { role: "user", content: [{ type: "document", title: "notes.txt", source: { type: "text", media_type: "text/plain", data: "hi" } }] },
        { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: [{ type: "image", source: { type: "base64", media_type: "image/png", data: "AAEC" } }] }] },
      ],
    });
    expect(files.map((f) => [f.part, f.mediaType, f.filename, f.type === "inline" ? [...f.data] : f.reference])).toEqual([
      ["document", "text/plain", "notes.txt", [104, 105]],
      ["image", "image/png", undefined, [0, 1, 2]],
    ]);
    expect(googleFiles({ contents: [{ role: "user", parts: [{ fileData: { mimeType: "video/mp4", fileUri: "gs://b/v.mp4" } }] }] })).toEqual([
      { type: "reference", reference: "gs://b/v.mp4", mediaType: "video/mp4", part: "fileData", role: "user" },
    ]);
  });
});
