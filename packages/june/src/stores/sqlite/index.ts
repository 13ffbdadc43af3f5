/**
 * `june/stores/sqlite`: the SQLite store. Its driver, `better-sqlite3` (12.x), is an optional peer
 * dependency: install it next to june (`npm install better-sqlite3@12`).
 *
 * @example
 * import { createChat } from "june/chat";
 * import { sqliteStore } from "june/stores/sqlite";
 *
 * const chat = createChat({ model, store: sqliteStore(".june/chat.db") });
 */
export { sqliteStore } from "./sqlite-store.js";
export type { SqliteStore, SqliteStoreOptions } from "./sqlite-store.js";
export { StoreClosedError, StoreDriverMissingError, StoreOpenError } from "../errors.js";
export type { ChatStore } from "../types.js";
