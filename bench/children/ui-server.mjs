/**
 * Child of the ui-chat benchmark: one HTTP server on 127.0.0.1 (its port printed as one JSON line), the same
 * scripted model behind every variant, the same Node adapter (`toNodeListener`) in front of every handler:
 *
 * - `ai-sdk`: the plain AI SDK server of its docs, `POST /chat` with `useChat`'s body:
 *   `streamText({ model, messages: await convertToModelMessages(messages) }).toUIMessageStreamResponse()`.
 * - `ui-chat`: June's `createChatHandler` over memoryStore, `POST /ui-chat` with the same body.
 * - `sse`: the same June handler's own route, `POST /sessions/:id/turns` with `{ input }` (Server-Sent Events).
 *
 * `GET /cpu` answers the process's `cpuUsage()` so far (the section reads it around each round), and drops
 * the prompts the mock model recorded. Usage: node ui-server.mjs VARIANT [JUNE_PACKAGE_DIR]
 */
import { createServer } from "node:http";
import { convertToModelMessages, streamText } from "ai";
import { benchModel } from "../lib/fixtures.mjs";
import { juneModule } from "../lib/june-module.mjs";

const [variant, packageDir] = process.argv.slice(2);
const model = benchModel();
const { toNodeListener, createChatHandler } = await juneModule("server", packageDir);

let handler;
if (variant === "ai-sdk") {
  handler = async (request) => {
    const { messages } = await request.json();
    return streamText({ model, messages: await convertToModelMessages(messages) }).toUIMessageStreamResponse();
  };
} else if (variant === "ui-chat" || variant === "sse") {
  const { createChat, memoryStore, fullContext } = await juneModule("chat", packageDir);
  handler = createChatHandler(createChat({ model, store: memoryStore(), context: fullContext() }));
} else {
  throw new Error(`bench: unknown variant ${variant}`);
}

const listener = toNodeListener(handler);
const server = createServer((req, res) => {
  if (req.url === "/cpu") {
    model.forget();
    const { user, system } = process.cpuUsage();
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ cpuMs: (user + system) / 1000 }));
    return;
  }
  listener(req, res);
});
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`));
process.stdin.on("end", () => process.exit(0));
process.stdin.resume();
