// One server process whose sessions belong to users: a workflow chat over postgresStore, turns shared through
// redisTurnEvents, and `authorize` answering a principal per bearer token (`bearerAuthorize`).
// argv[2]: JSON { databaseUrl, schema, redisUrl, prefix, presenceTtlMs?, blockMs? }
// Prints one JSON line once listening: { url, processId }.
import { createChatHandler, serve } from "../../index.js";
import { postgresStore } from "../../../stores/postgres/postgres-store.js";
import { bearerAuthorize } from "../../__fixtures__/owners.js";
import { redisTurnEvents } from "../index.js";
import { workflowChat } from "./workflow-chat.js";

const options = JSON.parse(process.argv[2] ?? "{}");

const store = postgresStore({ connectionString: options.databaseUrl, schema: options.schema, max: 4 });
const chat = workflowChat(store);
const bus = redisTurnEvents({ url: options.redisUrl }, { prefix: options.prefix, presenceTtlMs: options.presenceTtlMs, blockMs: options.blockMs });
await bus.ready();
const server = await serve({ handler: createChatHandler(chat, { turnEvents: bus, keepAliveMs: 0, authorize: bearerAuthorize }) });
process.stdout.write(`${JSON.stringify({ url: server.url, processId: bus.processId })}\n`);

process.once("SIGTERM", () => {
  void (async () => {
    await server.close();
    await bus.close();
    await store.close();
    process.exit(0);
  })();
});
