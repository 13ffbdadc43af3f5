#!/usr/bin/env node
/**
 * Runs many turns of one variant at one history size, for `node --cpu-prof`:
 *   node --cpu-prof --cpu-prof-dir=/tmp/prof bench/tools/profile-turns.mjs memory fullContext 10000 30
 * Variants: raw, memory, file, file-nosync, agent. Contexts: fullContext, "recentTurns(20)".
 */
import { randomUUID } from "node:crypto";
import { benchModel, chatTurn, contextOf, inputOf, rawTurn, seedSession, tempDir, variantChat } from "../lib/fixtures.mjs";

const [variant = "memory", contextName = "fullContext", sizeArg = "10", turnsArg = "200"] = process.argv.slice(2);
const size = Number(sizeArg);
const turns = Number(turnsArg);
const model = benchModel();
const chat = variantChat(variant === "raw" ? "memory" : variant, { model, context: contextOf(contextName), dir: `${tempDir()}/${randomUUID()}` });
const { id } = await chat.createSession();
const history = await seedSession(chat.store, id, { turns: size, contextName });
const session = await chat.openSession(id);
const window = contextName === "fullContext" ? undefined : 20;
const started = performance.now();
const cpu = process.cpuUsage();
for (let i = 0; i < turns; i++) {
  if (variant === "raw") await rawTurn(model, history, inputOf(size + i), { window });
  else await chatTurn(session, inputOf(size + i), model);
}
const used = process.cpuUsage(cpu);
process.stderr.write(
  `${variant} ${contextName} at ${size}: ${((used.user + used.system) / 1000 / turns).toFixed(2)} ms CPU, ${((performance.now() - started) / turns).toFixed(2)} ms wall per turn\n`,
);
