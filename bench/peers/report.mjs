/** The peer benchmark's tables (bench/peers/run.mjs figures), for `node bench/peers/run.mjs` and `npm run bench`. */
import { round } from "../lib/stats.mjs";
import { fmt, table } from "../lib/table.mjs";

/** What each driver of bench/peers/drivers.mjs is, as the tables name it. */
export const LABELS = {
  raw: "AI SDK: raw streamText, { role, content } array (the floor)",
  "aisdk-array": "AI SDK: streamText + textStream, response.messages appended",
  "june-memory": "June: createChat + memoryStore",
  "june-file": "June: createChat + fileStore (fsync on)",
  "june-agent": "June: agentResponder, one step",
  "openai-agents": "OpenAI Agents: Runner + MemorySession",
  "openai-agents-generator": "OpenAI Agents: Runner + MemorySession",
  mastra: "Mastra: Agent + MockMemory (InMemoryStore)",
  langgraph: "LangGraph: StateGraph + MemorySaver",
  "langgraph-fake": "LangGraph: StateGraph + MemorySaver",
};

const x = (v) => fmt(v, "×");
const ms = (v) => fmt(v, " ms");

/** The tables, as `npm run bench -- --only peers` and `node bench/peers/run.mjs` print them. */
export function renderPeers(f) {
  const versions = Object.entries(f.versions)
    .map(([name, v]) => `${name} ${v}`)
    .join(", ");
  const parts = [
    `Peers: ${versions}; ${f.runtimes.join(" and ")}${f.quick ? " (quick run)" : ""}`,
  ];
  if (f.turn) parts.push(
    `Per-turn CPU over raw streamText (clean floor: the A/A processes of the same runtime and rep), ${f.turn.deltas}-delta scripted reply; median of ${f.turn.reps} processes per row, each ${f.turn.rounds} rounds of ${f.turn.turns}-turn conversations interleaved with the floor; [min–max over processes]; "in process": over the floor measured beside it; "floor ×": that floor over the clean one`,
    table(
      ["runtime", "driver", "CPU/turn", "over raw", "spread", "in process", "floor ×"],
      f.turn.rows.map((r) => [r.runtime, r.driver === "raw" ? "A/A: raw against raw" : LABELS[r.driver], ms(r.cpuMs), x(r.ratio), `${fmt(r.ratioMin)}–${fmt(r.ratioMax)}×`, x(r.inProcessRatio), x(r.floorSlowdown)]),
    ),
  );
  if (f.heap) parts.push(
    `Idle heap per live ${f.heap.turns}-turn conversation (heapUsed after gc over ${f.heap.sessions} conversations kept, --expose-gc)`,
    table(
      ["runtime", "driver", "KB/conversation", `at ${f.heap.sessions >> 1}`],
      f.heap.rows.map((r) => [r.runtime, LABELS[r.driver] ?? `June: ${r.driver}`, fmt(round(r.bytesPerSession / 1024), " KB"), fmt(round(r.bytesPerSessionAtHalf / 1024), " KB")]),
    ),
  );
  if (f.cold) parts.push(
    `Cold start: import + one turn in a fresh process, median of ${f.cold.runs}; over bare Node (node -e 0) of the same runtime`,
    table(
      ["runtime", "driver", "exit", "over node", "over the AI SDK's"],
      f.cold.rows.map((r) => [r.runtime, r.driver === "node" ? "node -e 0" : LABELS[r.driver], ms(r.exitMs), r.driver === "node" ? "" : ms(r.overNodeMs), r.driver === "node" ? "" : x(r.ratioToAiSdk)]),
    ),
  );
  if (f.load) parts.push(
    `Open + load: June fileStore openSession + turns() against a hand-rolled JSONL read + parse of the same journal, fresh processes, median of ${f.load.runs}`,
    table(
      ["runtime", "journal", "fileStore open + load", "JSONL read", "ratio", "spread"],
      f.load.rows.map((r) => [r.runtime, `${r.turns.toLocaleString("en-US")} turns, ${r.journalMB} MB`, ms(r.openLoadMs), ms(r.jsonlMs), x(r.ratio), `${fmt(r.ratioMin)}–${fmt(r.ratioMax)}×`]),
    ),
  );
  if (f.leftOut.length > 0) parts.push(`Left out: ${f.leftOut.map((l) => `${l.driver} (${l.why})`).join("; ")}`);
  return parts.join("\n\n");
}
