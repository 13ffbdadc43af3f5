import { randomUUID } from "node:crypto";
import { createClient } from "redis";

/** The test Redis: `JUNE_TEST_REDIS_URL`, else the local server CI starts. */
export const TEST_REDIS_URL = process.env.JUNE_TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

const START_COMMAND =
  'redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no --dir /var/lib/redis --logfile /var/log/redis/ci.log';

function makeClient() {
  return createClient({ url: TEST_REDIS_URL, socket: { connectTimeout: 3000, reconnectStrategy: false } });
}
export type TestRedisClient = ReturnType<typeof makeClient>;

/**
 * A connected client for the test's own checks. A server that is down fails the tests (never skips them)
 * with the command that starts it.
 */
export async function testRedis(): Promise<TestRedisClient> {
  const client = makeClient();
  client.on("error", () => undefined);
  try {
    await client.connect();
    await client.ping();
  } catch (error) {
    client.destroy();
    throw new Error(
      `Redis is not reachable at ${new URL(TEST_REDIS_URL).host} (${(error as Error).message}). These tests need it: start it with ` +
        `\`${START_COMMAND}\` (.ci/run does), or point JUNE_TEST_REDIS_URL at another server.`,
      { cause: error },
    );
  }
  return client;
}

/** A key prefix of its own for one test. */
export function testPrefix(label: string): string {
  return `june-test:${label}:${randomUUID().slice(0, 8)}:`;
}

/** Every key under a prefix. */
export async function keysUnder(client: TestRedisClient, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const batch of client.scanIterator({ MATCH: `${prefix}*`, COUNT: 500 })) keys.push(...batch);
  return keys.sort();
}

/** Every value under a prefix as text (stream entries, hash fields, strings), to look for secrets in. */
export async function dumpValues(client: TestRedisClient, prefix: string): Promise<string> {
  const out: string[] = [];
  for (const key of await keysUnder(client, prefix)) {
    const type = await client.type(key);
    if (type === "stream") out.push(JSON.stringify(await client.sendCommand(["XRANGE", key, "-", "+"])));
    else if (type === "hash") out.push(JSON.stringify(await client.hGetAll(key)));
    else if (type === "string") out.push(String(await client.get(key)));
    else out.push(`${key}: ${type}`);
  }
  return out.join("\n");
}

/** Deletes every key under a prefix. */
export async function dropPrefix(client: TestRedisClient, prefix: string): Promise<void> {
  const keys = await keysUnder(client, prefix);
  if (keys.length > 0) await client.del(keys);
}
