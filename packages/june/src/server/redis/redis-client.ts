import { loadDriver } from "../../stores/load-driver.js";

/**
 * The part of a node-redis client (`createClient()` from `redis`, 6.x) that `redisTurnEvents` uses. Every
 * command goes through `sendCommand`, so RESP2 and RESP3 clients both work; subscriptions and blocking
 * reads run on `duplicate()`s of it.
 */
export interface RedisClientLike {
  readonly isOpen: boolean;
  /** Connected (not only connecting). */
  readonly isReady: boolean;
  connect(): Promise<unknown>;
  sendCommand(args: readonly string[]): Promise<unknown>;
  duplicate(): RedisClientLike;
  subscribe(channel: string, listener: (message: string, channel: string) => unknown): Promise<unknown>;
  unsubscribe(channel?: string): Promise<unknown>;
  close(): Promise<unknown>;
  destroy(): unknown;
  on(event: "error", listener: (error: unknown) => void): unknown;
}

/** Where `redisTurnEvents` finds Redis: a URL (it makes and closes the client), or a client of yours. */
export type RedisConnection = { url: string; client?: never } | { client: RedisClientLike; url?: never };

interface RedisModule {
  createClient(options: { url: string }): RedisClientLike;
}

/** The client for a connection option, and whether `redisTurnEvents` made it (and so closes it). */
export function clientFor(connection: RedisConnection): { client: RedisClientLike; owned: boolean } {
  if (typeof connection !== "object" || connection === null) {
    throw new TypeError("redisTurnEvents(connection): connection must be { url } or { client }");
  }
  if (connection.client !== undefined) {
    const client = connection.client as Partial<RedisClientLike>;
    if (typeof client.sendCommand !== "function" || typeof client.duplicate !== "function" || typeof client.subscribe !== "function") {
      throw new TypeError("redisTurnEvents({ client }): client must be a node-redis client (createClient() from the `redis` package)");
    }
    return { client: connection.client, owned: false };
  }
  if (typeof connection.url !== "string" || !/^rediss?:\/\//.test(connection.url)) {
    throw new TypeError(`redisTurnEvents({ url }): url must be a redis:// or rediss:// URL`);
  }
  const redis = loadDriver<RedisModule>("redis", "redisTurnEvents", "6");
  return { client: redis.createClient({ url: connection.url }), owned: true };
}

/** Opens a client unless it is open already. */
export async function ensureOpen(client: RedisClientLike): Promise<void> {
  if (!client.isOpen) await client.connect();
}

/** A reply as a string, or `undefined` (nil, or not a string). */
export function asString(reply: unknown): string | undefined {
  if (typeof reply === "string") return reply;
  if (reply instanceof Uint8Array) return Buffer.from(reply).toString("utf8");
  return undefined;
}

/** A hash or map reply (RESP2 flat array, RESP3 object or `Map`) as a record of strings. */
export function asRecord(reply: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (Array.isArray(reply)) {
    for (let i = 0; i + 1 < reply.length; i += 2) {
      const key = asString(reply[i]);
      const value = asString(reply[i + 1]);
      if (key !== undefined && value !== undefined) out[key] = value;
    }
  } else if (reply instanceof Map) {
    for (const [key, value] of reply) {
      const k = asString(key);
      const v = asString(value);
      if (k !== undefined && v !== undefined) out[k] = v;
    }
  } else if (typeof reply === "object" && reply !== null) {
    for (const [key, value] of Object.entries(reply)) {
      const v = asString(value);
      if (v !== undefined) out[key] = v;
    }
  }
  return out;
}

/** One stream entry: its id and fields. */
export interface StreamEntry {
  id: string;
  fields: Record<string, string>;
}

/** An `XRANGE` reply: `[[id, [field, value, ...]], ...]`. */
export function asStreamEntries(reply: unknown): StreamEntry[] {
  if (!Array.isArray(reply)) return [];
  const out: StreamEntry[] = [];
  for (const item of reply) {
    if (!Array.isArray(item)) continue;
    const id = asString(item[0]);
    if (id !== undefined) out.push({ id, fields: asRecord(item[1]) });
  }
  return out;
}

/** The entries of one stream in an `XREAD` reply (RESP2 `[[key, entries]]`, RESP3 `{ key: entries }`), or nil. */
export function xreadEntries(reply: unknown, key: string): StreamEntry[] {
  if (reply === null || reply === undefined) return [];
  if (Array.isArray(reply)) {
    for (const item of reply) if (Array.isArray(item) && asString(item[0]) === key) return asStreamEntries(item[1]);
    return [];
  }
  if (reply instanceof Map) {
    for (const [name, entries] of reply) if (asString(name) === key) return asStreamEntries(entries);
    return [];
  }
  if (typeof reply === "object") return asStreamEntries((reply as Record<string, unknown>)[key]);
  return [];
}
