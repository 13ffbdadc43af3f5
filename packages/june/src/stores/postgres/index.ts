/**
 * `june/stores/postgres`: the PostgreSQL store. Its driver, `pg` (8.x), is an optional peer dependency:
 * install it next to june (`npm install pg@8`).
 *
 * @example
 * import { createChat } from "june/chat";
 * import { postgresStore } from "june/stores/postgres";
 *
 * const chat = createChat({ model, store: postgresStore({ connectionString: process.env.DATABASE_URL! }) });
 */
export { postgresStore } from "./postgres-store.js";
export type { PostgresStore, PostgresStoreOptions } from "./postgres-store.js";
export type { PgPool, PgQueryable, PgResult } from "./postgres-schema.js";
export { StoreClosedError, StoreDriverMissingError } from "../errors.js";
export type { ChatStore } from "../types.js";
