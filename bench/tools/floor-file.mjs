#!/usr/bin/env node
/**
 * fileStore's floors, in one process, rounds interleaved: a raw `streamText` turn; the same turn plus the two
 * JSONL lines a turn journals written to an open file ("the AI SDK with a hand-rolled JSONL file": one
 * `JSON.stringify` and one `writeSync` each, no lock, no checks), without a flush, with one `fdatasync` a turn
 * through the thread pool (`FileHandle.datasync`) and with a blocking `fdatasyncSync`; then June's chats over
 * memoryStore and fileStore (fsync off and on) on the same model:
 *   node --expose-gc bench/tools/floor-file.mjs [rounds] [variants]
 * Variants: raw, jsonl, jsonl-write, jsonl-datasync, jsonl-datasync-sync, memory, file-nosync, file.
 */
import { closeSync, fdatasyncSync, openSync, writeSync } from "node:fs";
import { open } from "node:fs/promises";
import { join } from "node:path";
import { benchModel, inputOf, rawTurn, tempDir, variantChat } from "../lib/fixtures.mjs";
import { interleave, measure, round } from "../lib/stats.mjs";

const [roundsArg = "20", variantsArg = "raw,jsonl,jsonl-write,jsonl-datasync,jsonl-datasync-sync,memory,file-nosync,file"] = process.argv.slice(2);
const turnsPerRound = 20;
const model = benchModel();
const dir = tempDir();
let files = 0;

/** The raw turn, then the turn's two lines (what June journals: a turn-start and a turn-end) appended to `file`. */
async function jsonlTurn(history, i, file) {
  const input = inputOf(i);
  const start = { seq: file.seq++, type: "turn-start", at: new Date().toISOString(), turnId: `t${i}`, input, context: { builder: "fullContext", turnIds: [] } };
  await file.write(`${JSON.stringify(start)}\n`);
  const text = await rawTurn(model, history, input);
  const end = { seq: file.seq++, type: "turn-end", at: new Date().toISOString(), turnId: `t${i}`, status: "completed", text, metadata: { responder: { kind: "model" } } };
  await file.write(`${JSON.stringify(end)}\n`);
  await file.flush();
}

function jsonlVariant(name, { asyncWrite = false, flush }) {
  return {
    name,
    async round() {
      const path = join(dir, `j${files++}.jsonl`);
      const fd = openSync(path, "a");
      const fh = asyncWrite || flush === "async" ? await open(path, "a") : undefined;
      const file = {
        seq: 1,
        write: asyncWrite ? (line) => fh.write(line) : (line) => void writeSync(fd, line),
        flush: flush === "async" ? () => fh.datasync() : flush === "sync" ? () => fdatasyncSync(fd) : () => undefined,
      };
      const history = [];
      const m = await measure(async () => {
        for (let i = 0; i < turnsPerRound; i++) await jsonlTurn(history, i, file);
      });
      closeSync(fd);
      await fh?.close();
      return { ...m, items: turnsPerRound };
    },
  };
}

function chatVariant(key) {
  const chat = variantChat(key, { model, dir: join(dir, key) });
  return {
    name: key,
    async round() {
      const session = await chat.createSession();
      const m = await measure(async () => {
        for (let i = 0; i < turnsPerRound; i++) {
          const turn = session.send(inputOf(i));
          for await (const event of turn) void event;
          await turn.result;
          model.forget();
        }
      });
      return { ...m, items: turnsPerRound };
    },
  };
}

const all = {
  raw: {
    name: "raw",
    async round() {
      const history = [];
      const m = await measure(async () => {
        for (let i = 0; i < turnsPerRound; i++) await rawTurn(model, history, inputOf(i));
      });
      return { ...m, items: turnsPerRound };
    },
  },
  jsonl: jsonlVariant("jsonl", {}),
  "jsonl-write": jsonlVariant("jsonl-write", { asyncWrite: true }),
  "jsonl-datasync": jsonlVariant("jsonl-datasync", { flush: "async" }),
  "jsonl-datasync-sync": jsonlVariant("jsonl-datasync-sync", { flush: "sync" }),
  memory: chatVariant("memory"),
  "file-nosync": chatVariant("file-nosync"),
  file: chatVariant("file"),
};
const keys = variantsArg.split(",");
if (!keys.includes("raw")) keys.unshift("raw");
const results = await interleave(
  keys.map((k) => all[k]),
  { rounds: Number(roundsArg), warmupRounds: 2 },
);
const floor = results.raw;
const rows = [["variant", "CPU/turn", "wall/turn", "CPU ratio", "wall ratio"]];
for (const [name, r] of Object.entries(results)) {
  rows.push([name, `${round(r.cpuMs)} ms`, `${round(r.wallMs)} ms`, `${round(r.cpuMs / floor.cpuMs)}×`, `${round(r.wallMs / floor.wallMs)}×`]);
}
for (const row of rows) console.log(row.map((c, i) => (i === 0 ? c.padEnd(20) : c.padStart(11))).join(" "));
process.exit(0);
