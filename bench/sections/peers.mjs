/**
 * June against its peers (bench/peers/run.mjs): per-turn CPU over raw streamText with an A/A row, idle heap per
 * live 10-turn conversation, cold start over bare Node, fileStore open + load against a hand-rolled JSONL read.
 * Each driver in processes of its own; the peers' pinned packages install into bench/peers on the first run.
 */
import { runPeers } from "../peers/run.mjs";
import { section } from "../lib/section.mjs";

await section("peers", ({ quick, log }) => runPeers({ quick, log }));
