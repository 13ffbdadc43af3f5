import { describe, expect, it } from "vitest";
import { readEventStream, StreamEventError } from "./event-stream";

function body(text: string): ReadableStream<Uint8Array<ArrayBuffer>> {
  return new Response(text).body as ReadableStream<Uint8Array<ArrayBuffer>>;
}

async function read(text: string) {
  const out: unknown[] = [];
  for await (const item of readEventStream(body(text))) out.push(item);
  return out;
}

describe("readEventStream", () => {
  it("yields the events the stream's schema accepts, skipping names it does not have", async () => {
    const text = [
      `id: 0\nevent: turn-start\ndata: ${JSON.stringify({ type: "turn-start", turnId: "t", sessionId: "s" })}\n\n`,
      `id: 1\nevent: tool-progress\ndata: ${JSON.stringify({ type: "tool-progress", text: "hm" })}\n\n`,
      `id: 2\nevent: text-delta\ndata: ${JSON.stringify({ type: "text-delta", text: "Hi" })}\n\n`,
      `id: 3\nevent: text-delta\ndata: not json\n\n`,
    ].join("");
    expect(await read(text)).toEqual([
      { id: "0", event: { type: "turn-start", turnId: "t", sessionId: "s" } },
      { id: "2", event: { type: "text-delta", text: "Hi" } },
    ]);
  });

  it("throws naming the field when a known event does not match the schema", async () => {
    const text = `id: 0\nevent: turn-end\ndata: ${JSON.stringify({ type: "turn-end", turnId: "t", sessionId: "s", status: "finished" })}\n\n`;
    const error = await read(text).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StreamEventError);
    expect((error as Error).message).toMatch(/Studio cannot read: .*status must be one of completed, failed, canceled, suspended/);
  });
});
