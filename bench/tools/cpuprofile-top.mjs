#!/usr/bin/env node
/**
 * The top self-time functions of a V8 CPU profile (from `node --cpu-prof`), with their file and line, and
 * the share each package (june, ai, node internals, …) takes.
 * Usage: node bench/tools/cpuprofile-top.mjs PROFILE.cpuprofile [N=25] [FILTER]
 */
import { readFileSync } from "node:fs";

const [file, n = "25", filter] = process.argv.slice(2);
if (!file) {
  process.stderr.write("usage: cpuprofile-top.mjs PROFILE.cpuprofile [N] [FILTER]\n");
  process.exit(2);
}
const profile = JSON.parse(readFileSync(file, "utf8"));
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const dt = new Map();
for (let i = 0; i < profile.samples.length; i++) {
  const id = profile.samples[i];
  dt.set(id, (dt.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
}
const total = [...dt.values()].reduce((a, b) => a + b, 0);

function where(frame) {
  const url = frame.url || "(native)";
  const short = url.replace(/^file:\/\//, "").replace(/.*\/node_modules\//, "").replace(/.*\/packages\/june\//, "june/");
  return `${short}:${frame.lineNumber + 1}`;
}
function pkg(frame) {
  const url = frame.url || "";
  if (!url) return frame.functionName.startsWith("(") ? frame.functionName : "(native)";
  if (url.startsWith("node:")) return "node internals";
  if (url.includes("/packages/june/dist/testing/")) return "june/testing (the scripted model)";
  if (url.includes("/packages/june/")) return "june";
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  return m ? m[1] : url.includes("/bench/") ? "bench" : url;
}

const self = new Map();
const packages = new Map();
for (const [id, micros] of dt) {
  const frame = byId.get(id).callFrame;
  const key = `${frame.functionName || "(anonymous)"}  ${where(frame)}`;
  self.set(key, (self.get(key) ?? 0) + micros);
  packages.set(pkg(frame), (packages.get(pkg(frame)) ?? 0) + micros);
}
// Time in node internals (web streams, promises, fs) charged to the nearest package frame that called it.
const parentOf = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
const owners = new Map();
for (const [id, micros] of dt) {
  let owner = pkg(byId.get(id).callFrame);
  for (let cur = id; cur !== undefined && (owner === "node internals" || owner === "(native)"); cur = parentOf.get(cur)) {
    const name = pkg(byId.get(cur).callFrame);
    if (name !== "node internals" && name !== "(native)" && name !== "(root)") owner = name;
  }
  owners.set(owner, (owners.get(owner) ?? 0) + micros);
}
const pct = (v) => `${((100 * v) / total).toFixed(1).padStart(5)}%`;
process.stdout.write(`total ${(total / 1000).toFixed(0)} ms sampled\n\nby package:\n`);
for (const [name, v] of [...packages].sort((a, b) => b[1] - a[1]).slice(0, 10)) process.stdout.write(`${pct(v)}  ${(v / 1000).toFixed(1).padStart(8)} ms  ${name}\n`);
process.stdout.write("\nby package, node internals charged to their caller:\n");
for (const [name, v] of [...owners].sort((a, b) => b[1] - a[1]).slice(0, 8)) process.stdout.write(`${pct(v)}  ${(v / 1000).toFixed(1).padStart(8)} ms  ${name}\n`);
process.stdout.write(`\ntop self time${filter ? ` (matching ${filter})` : ""}:\n`);
const rows = [...self].filter(([key]) => !filter || key.includes(filter)).sort((a, b) => b[1] - a[1]).slice(0, Number(n));
for (const [key, v] of rows) process.stdout.write(`${pct(v)}  ${(v / 1000).toFixed(1).padStart(8)} ms  ${key}\n`);
