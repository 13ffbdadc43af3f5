/**
 * `june/server/redis`: turns shared by several `june/server` processes through Redis. Its driver, `redis`
 * (node-redis 6.x), is an optional peer dependency: install it next to june (`npm install redis@6`).
 *
 * @example
 * import { createChat } from "june/chat";
 * import { createChatHandler, serve } from "june/server";
 * import { redisTurnEvents } from "june/server/redis";
 * import { postgresStore } from "june/chat";
 *
 * const chat = createChat({ model, store: postgresStore({ connectionString: process.env.DATABASE_URL! }) });
 * const handler = createChatHandler(chat, { turnEvents: redisTurnEvents({ url: process.env.REDIS_URL! }) });
 * await serve({ handler, port: 3000 });
 */
export { redisTurnEvents } from "./redis-turn-events.js";
export type { RedisTurnEvents, RedisTurnEventsOptions } from "./redis-turn-events.js";
export type { RedisClientLike, RedisConnection } from "./redis-client.js";
