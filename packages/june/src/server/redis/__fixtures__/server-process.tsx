// One server process: a workflow chat over postgresStore, its turns shared through redisTurnEvents.
// argv[2]: JSON { databaseUrl, schema, redisUrl, prefix, presenceTtlMs?, blockMs?, controlTimeoutMs? }
// Prints JSON lines: { url, processId } once listening, { ran: { env } } each time the tool runs.
import { createChatHandler, serve } from "../../index.js";
import { postgresStore } from "../../../stores/postgres/postgres-store.js";
import { redisTurnEvents } from "../index.js";
import { workflowChat } from "./workflow-chat.js";

const options = JSON.parse(process.argv[2] ?? "{}");
const say = (value: unknown) => process.stdout.write(`${JSON.stringify(value)}\n`);

const store = postgresStore({ connectionString: options.databaseUrl, schema: options.schema, max: 4 });
const chat = workflowChat(store, (run) => say({ ran: run }));
const bus = redisTurnEvents(
  { url: options.redisUrl },
  { prefix: options.prefix, presenceTtlMs: options.presenceTtlMs, blockMs: options.blockMs, controlTimeoutMs: options.controlTimeoutMs },
);
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
