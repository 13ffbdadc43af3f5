#!/usr/bin/env node
/**
 * The turn section's shape for `node --cpu-prof`: many fresh sessions of 20 turns each (fullContext), one variant:
 *   node --cpu-prof --cpu-prof-dir=/tmp/prof bench/tools/profile-rounds.mjs memory 200
 * Variants: raw, memory, file, file-nosync, agent.
 */
import { benchModel, chatTurn, inputOf, rawTurn, tempDir, variantChat } from "../lib/fixtures.mjs";

const [variant = "memory", roundsArg = "200"] = process.argv.slice(2);
const rounds = Number(roundsArg);
const model = benchModel();
const chat = variant === "raw" ? undefined : variantChat(variant, { model, dir: tempDir() });
const cpu = process.cpuUsage();
const started = performance.now();
for (let r = 0; r < rounds; r++) {
  if (chat === undefined) {
    const history = [];
    for (let i = 0; i < 20; i++) await rawTurn(model, history, inputOf(i));
  } else {
    const session = await chat.createSession();
    for (let i = 0; i < 20; i++) await chatTurn(session, inputOf(i), model);
  }
}
const used = process.cpuUsage(cpu);
const turns = rounds * 20;
process.stderr.write(`${variant}: ${((used.user + used.system) / 1000 / turns).toFixed(3)} ms CPU, ${((performance.now() - started) / turns).toFixed(3)} ms wall per turn\n`);
