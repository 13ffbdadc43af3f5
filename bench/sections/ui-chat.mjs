/**
 * 11. `/ui-chat` against a plain AI SDK server: server CPU per turn of the same 60-delta scripted reply, each
 * variant an HTTP server in its own process (see `children/ui-server.mjs`), driven from here over 127.0.0.1
 * by 1 client and by 50 at once, each client a chat of a few turns sending `useChat`'s body (the whole UI
 * message history) and reading the response to its end. Rounds alternate the variants; the figures are the
 * medians of the server's own CPU (`process.cpuUsage` read before and after the round) per turn, and the
 * ratio to the plain AI SDK server. `ai-sdk (A/A)` is a second plain server: the run's own noise. `sse` is
 * June's own route (`POST /sessions/:id/turns`) on the same handler.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { replyDeltas, inputOf } from "../lib/fixtures.mjs";
import { section } from "../lib/section.mjs";
import { median, round } from "../lib/stats.mjs";

const child = fileURLToPath(new URL("../children/ui-server.mjs", import.meta.url));
const REPLY = replyDeltas().join("");
const BEFORE = process.env.JUNE_BENCH_BEFORE;
const VARIANTS = [
  { key: "ai-sdk", label: "plain AI SDK server (toUIMessageStreamResponse)", server: "ai-sdk" },
  { key: "ui-chat", label: "June POST /ui-chat", server: "ui-chat" },
  { key: "sse", label: "June POST /sessions/:id/turns (SSE)", server: "sse" },
  { key: "ai-sdk-aa", label: "plain AI SDK server again (A/A)", server: "ai-sdk" },
  // JUNE_BENCH_BEFORE=DIR (a June package directory holding an older dist/): its /ui-chat in the same rounds.
  ...(BEFORE ? [{ key: "ui-chat-before", label: `June POST /ui-chat, ${BEFORE}`, server: "ui-chat", packageDir: BEFORE }] : []),
];

function startServer(kind, packageDir) {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [child, kind, ...(packageDir ? [packageDir] : [])], { stdio: ["pipe", "pipe", "inherit"] });
    let out = "";
    proc.on("error", reject);
    proc.on("exit", (code) => reject(new Error(`bench: ${kind} server exited (${code})`)));
    proc.stdout.on("data", (chunk) => {
      out += chunk;
      if (!out.includes("\n")) return;
      const { port } = JSON.parse(out.split("\n")[0]);
      resolve({ base: `http://127.0.0.1:${port}`, stop: () => proc.stdin.end() });
    });
  });
}

async function cpuOf(base) {
  return (await (await fetch(`${base}/cpu`)).json()).cpuMs;
}

/** One client's chat: `turns` turns, each posting the whole UI history as `useChat` does, read to the end. */
async function client(variant, base, chatId, turns) {
  const messages = [];
  for (let i = 0; i < turns; i++) {
    const input = inputOf(i);
    messages.push({ id: `${chatId}-u${i}`, role: "user", parts: [{ type: "text", text: input }] });
    const request =
      variant.server === "sse"
        ? [`${base}/sessions/${chatId}/turns`, { input }]
        : [`${base}/${variant.server === "ai-sdk" ? "chat" : "ui-chat"}`, { id: chatId, messages, trigger: "submit-message" }];
    const response = await fetch(request[0], { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(request[1]) });
    const body = await response.text();
    if (response.status !== 200) throw new Error(`bench: ${variant.key} answered ${response.status}: ${body.slice(0, 300)}`);
    const done = variant.server === "sse" ? body.includes('"status":"completed"') : body.includes('"type":"finish"');
    if (!done) throw new Error(`bench: ${variant.key}'s turn did not finish: ${body.slice(-300)}`);
    messages.push({ id: `${chatId}-a${i}`, role: "assistant", parts: [{ type: "text", text: REPLY }] });
  }
}

async function round_(variant, base, clients, turns, tag) {
  const ids = Array.from({ length: clients }, (_, c) => `${tag}-${c}`);
  if (variant.server === "sse") {
    for (const id of ids) {
      const created = await fetch(`${base}/sessions`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ id }) });
      if (created.status !== 201) throw new Error(`bench: POST /sessions answered ${created.status}`);
    }
  }
  const cpu0 = await cpuOf(base);
  const t0 = performance.now();
  await Promise.all(ids.map((id) => client(variant, base, id, turns)));
  const wallMs = performance.now() - t0;
  const cpuMs = (await cpuOf(base)) - cpu0;
  return { cpuMsPerTurn: cpuMs / (clients * turns), wallMsPerTurn: wallMs / (clients * turns) };
}

await section("ui-chat", async ({ quick, log }) => {
  const packageDir = process.env.JUNE_BENCH_PACKAGE;
  const shapes = quick ? [{ clients: 1, turns: 5 }, { clients: 50, turns: 2 }] : [{ clients: 1, turns: 30 }, { clients: 50, turns: 4 }];
  const rounds = Number(process.env.JUNE_BENCH_ROUNDS ?? (quick ? 2 : 7));
  const servers = {};
  for (const variant of VARIANTS) servers[variant.key] = await startServer(variant.server, variant.packageDir ?? packageDir);
  const rows = [];
  try {
    for (const shape of shapes) {
      const samples = Object.fromEntries(VARIANTS.map((v) => [v.key, []]));
      // One warm-up round each, not counted.
      for (const variant of VARIANTS) await round_(variant, servers[variant.key].base, shape.clients, 2, `warm-${shape.clients}`);
      for (let r = 0; r < rounds; r++) {
        log(`${shape.clients} client(s) × ${shape.turns} turns, round ${r + 1}/${rounds}`);
        // Alternating order, so no variant always runs right after the same one.
        const order = r % 2 === 0 ? VARIANTS : [...VARIANTS].reverse();
        for (const variant of order) samples[variant.key].push(await round_(variant, servers[variant.key].base, shape.clients, shape.turns, `r${r}-${shape.clients}`));
      }
      const base = median(samples["ai-sdk"].map((s) => s.cpuMsPerTurn));
      for (const variant of VARIANTS) {
        const cpu = median(samples[variant.key].map((s) => s.cpuMsPerTurn));
        rows.push({
          clients: shape.clients,
          turns: shape.turns,
          key: variant.key,
          label: variant.label,
          cpuMs: round(cpu, 3),
          wallMs: round(median(samples[variant.key].map((s) => s.wallMsPerTurn)), 3),
          cpuRatio: round(cpu / base, 3),
          ratios: samples[variant.key].map((s, i) => round(s.cpuMsPerTurn / samples["ai-sdk"][i].cpuMsPerTurn, 3)),
        });
      }
    }
  } finally {
    for (const server of Object.values(servers)) server.stop();
  }
  return { rounds, deltas: replyDeltas().length, rows };
});
