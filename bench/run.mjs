#!/usr/bin/env node
/**
 * `npm run bench`: what a June turn costs on top of the model, and how that grows. Each section runs in its
 * own Node process (with --expose-gc) against the BUILT package (`npm run build -w june` first) and reports
 * medians and ratios to a baseline measured in the same run. Nothing here asserts a timing.
 *
 *   npm run bench                         the tables
 *   npm run bench -- --json               the same figures as JSON on stdout
 *   npm run bench -- --json --out FILE    … written to FILE
 *   npm run bench -- --quick              a small, fast run (a smoke test of every section)
 *   npm run bench -- --only turn,growth   some sections only (turn, platforms, growth, sessions, streaming, startup, memory, telemetry, concurrency, mcp, durable, subagent, ui-chat, guardrails, queued, recall)
 *   npm run bench -- --only peers         June against its peers (OpenAI Agents, Mastra, LangGraph, the AI SDK), not
 *                                         in the default run: it installs their pinned packages into bench/peers
 *                                         (bench/peers/run.mjs)
 *   npm run bench -- --from FILE          the tables of figures saved earlier with --json --out FILE
 *   npm run bench -- --only turn --rounds 40   more rounds for the sections that take it (turn): a narrower interval
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { REPORTS } from "./lib/report.mjs";

/** The sections that take `--rounds N`. */
const ROUNDS_SECTIONS = ["turn", "platforms"];
const SECTIONS = ["turn", "platforms", "growth", "sessions", "streaming", "startup", "memory", "telemetry", "concurrency", "mcp", "durable", "subagent", "ui-chat", "guardrails", "queued", "recall"];
/** Sections run only when named with --only. */
const OPT_IN = ["peers"];

function parseArgs(argv) {
  const options = { quick: false, json: false, out: undefined, only: SECTIONS, from: undefined, rounds: undefined };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--quick") options.quick = true;
    else if (arg === "--json") options.json = true;
    else if (arg === "--out") options.out = argv[++i];
    else if (arg.startsWith("--out=")) options.out = arg.slice(6);
    else if (arg === "--from") options.from = argv[++i];
    else if (arg === "--rounds") options.rounds = argv[++i];
    else if (arg.startsWith("--rounds=")) options.rounds = arg.slice(9);
    else if (arg === "--only") options.only = argv[++i]?.split(",") ?? [];
    else if (arg.startsWith("--only=")) options.only = arg.slice(7).split(",");
    else if (arg === "--help" || arg === "-h") {
      process.stdout.write(readFileSync(fileURLToPath(import.meta.url), "utf8").split("*/")[0].replace(/^#!.*\n\/\*\*\n/, "").replace(/^ \* ?/gm, ""));
      process.exit(0);
    } else {
      throw new Error(`bench: unknown argument ${arg} (try --help)`);
    }
  }
  if (options.out === "") throw new Error("bench: --out needs a file name");
  if (options.rounds !== undefined && !/^[1-9]\d*$/.test(options.rounds)) throw new Error("bench: --rounds needs a positive integer");
  for (const name of options.only) {
    if (!SECTIONS.includes(name) && !OPT_IN.includes(name)) throw new Error(`bench: unknown section "${name}" (sections: ${[...SECTIONS, ...OPT_IN].join(", ")})`);
  }
  return options;
}

function runSection(name, { quick, rounds }, scratch) {
  const script = fileURLToPath(new URL(`./sections/${name}.mjs`, import.meta.url));
  const result = join(scratch, `${name}.json`);
  const args = ["--expose-gc", script, "--result", result, ...(quick ? ["--quick"] : []), ...(rounds !== undefined && ROUNDS_SECTIONS.includes(name) ? ["--rounds", rounds] : [])];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ["ignore", "inherit", "inherit"] });
    child.on("error", reject);
    child.on("close", (code) => {
      if (code !== 0) reject(new Error(`bench: section ${name} failed (exit ${code})`));
      else resolve(JSON.parse(readFileSync(result, "utf8")));
    });
  });
}

/** The tables, as `npm run bench` prints them. */
function render(report, sections) {
  const { machine } = report;
  return [
    `June benchmarks: ${machine.node}, ${machine.platform}, ${machine.cpus} × ${machine.cpu}${report.quick ? " (quick run: smaller figures, fewer repetitions)" : ""}`,
    ...sections.filter((name) => report.sections[name]).map((name) => REPORTS[name](report.sections[name])),
    `(${report.seconds} s, ${report.date})`,
  ].join("\n\n");
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  if (options.from) {
    process.stdout.write(`${render(JSON.parse(readFileSync(options.from, "utf8")), options.only)}\n`);
    return;
  }
  const built = fileURLToPath(new URL("../packages/june/dist/chat/index.js", import.meta.url));
  if (!existsSync(built)) throw new Error("bench: june is not built: run `npm run build -w june` first");
  const scratch = mkdtempSync(join(tmpdir(), "june-bench-run-"));
  const started = Date.now();
  const report = {
    date: new Date().toISOString(),
    quick: options.quick,
    machine: { node: process.version, platform: `${process.platform} ${process.arch}`, cpus: cpus().length, cpu: cpus()[0]?.model },
    sections: {},
  };
  try {
    for (const name of options.only) {
      process.stderr.write(`bench: ${name}${options.quick ? " (quick)" : ""}\n`);
      report.sections[name] = await runSection(name, options, scratch);
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  report.seconds = Math.round((Date.now() - started) / 1000);
  if (options.json) {
    const json = `${JSON.stringify(report, null, 2)}\n`;
    if (options.out) writeFileSync(options.out, json);
    else process.stdout.write(json);
    if (options.out) process.stderr.write(`bench: figures written to ${options.out}\n`);
    return;
  }
  const text = render(report, options.only);
  if (options.out) writeFileSync(options.out, `${text}\n`);
  process.stdout.write(`${text}\n`);
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
