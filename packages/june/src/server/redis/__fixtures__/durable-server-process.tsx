// One server process for durable-processes.test.ts: the durable agent chat of
// chat/__fixtures__/durable-chat.tsx over postgresStore, its turns shared through redisTurnEvents.
// argv[2]: JSON { databaseUrl, schema, redisUrl, prefix, log, suspendAfterMs?, leaseTtlMs?, presenceTtlMs?, blockMs?, mcp? }
// Prints JSON lines: { url, processId } once listening. Model calls and tool runs go to the log file.
import { createChatHandler, serve } from "../../index.js";
import { postgresStore } from "../../../stores/postgres/postgres-store.js";
import { durableChat } from "../../../chat/__fixtures__/durable-chat.js";
import { mcpChat } from "../../../mcp/__fixtures__/durable-mcp-chat.js";
import { redisTurnEvents } from "../index.js";

const options = JSON.parse(process.argv[2] ?? "{}");
const say = (value: unknown) => process.stdout.write(`${JSON.stringify(value)}\n`);

const store = postgresStore({ connectionString: options.databaseUrl, schema: options.schema, max: 4, leaseTtlMs: options.leaseTtlMs });
const suspendAfterMs = options.suspendAfterMs ?? Infinity;
// With `mcp` ({ script, log }): the chat of mcp/__fixtures__/durable-mcp-chat.tsx, its tool on the fixture MCP server over stdio.
const chat = options.mcp
  ? mcpChat({ store, suspendAfterMs, server: { command: process.execPath, args: [options.mcp.script], env: { MCP_FIXTURE_LOG: options.mcp.log } } })
  : durableChat({ store, log: options.log, durable: { suspendAfterMs } }).chat;
const bus = redisTurnEvents({ url: options.redisUrl }, { prefix: options.prefix, presenceTtlMs: options.presenceTtlMs, blockMs: options.blockMs });
await bus.ready();
const server = await serve({ handler: createChatHandler(chat, { turnEvents: bus, keepAliveMs: 0 }) });
say({ url: server.url, processId: bus.processId });

process.once("SIGTERM", () => {
  void (async () => {
    await server.close();
    await bus.close();
    await store.close();
    process.exit(0);
  })();
});
