/** The tables `npm run bench` prints, one per section, from the sections' JSON figures. */
import { fmt, table } from "./table.mjs";
import { renderPeers } from "../peers/report.mjs";

const ms = (v) => fmt(v, " ms");
const x = (v) => fmt(v, "×");

const GROWTH_LABELS = { raw: "raw", memory: "memoryStore", "file-nosync": "fileStore", agent: "agent" };

export const REPORTS = {
  peers: renderPeers,
  turn(f) {
    return [
      `1. Turn overhead: one turn of a ${f.deltas}-delta scripted reply, median over ${f.rounds} rounds of ${f.turnsPerRound} turns (fresh session per round); per round: the CPU ratio to (a) in the same round, its quartiles and a 95 % interval of its median`,
      table(
        ["driver", "CPU/turn", "wall/turn", "CPU ratio", "wall ratio", "CPU over (a)", "per round: median [q1–q3]", "95 % interval"],
        f.rows.map((r) => {
          const p = r.cpuRatioPerRound;
          return [
            r.label,
            ms(r.cpuMs),
            ms(r.wallMs),
            x(r.cpuRatio),
            x(r.wallRatio),
            ms(r.cpuOverFloorMs),
            p ? `${fmt(p.median)} [${fmt(p.q1)}–${fmt(p.q3)}]` : "–",
            p ? `${fmt(p.ci95[0])}–${fmt(p.ci95[1])}` : "–",
          ];
        }),
      ),
    ].join("\n");
  },
  platforms(f) {
    const labels = { raw: "raw streamText (the floor)", "raw-aa": "raw again, A/A: the run's noise", "aisdk-chat": "AI SDK chat pattern (textStream + response.messages)", memory: "June createChat + memoryStore", file: "June createChat + fileStore, fsync on", "file-nosync": "June createChat + fileStore, fsync off", agent: "June agentResponder, one step" };
    const parts = [`1b. The turn on both platforms, one run: median over ${f.rounds} rounds of ${f.turnsPerRound} turns of a ${f.deltas}-delta reply, variants interleaved in one process per platform; CPU ratio to that platform's raw streamText, per round: median [q1–q3]`];
    const live = f.platforms.filter((p) => !p.skipped);
    if (live.length > 0) {
      parts.push(
        table(
          ["variant", ...live.flatMap((p) => [`CPU/turn, ${p.node} ai ${p.ai}`, "CPU ratio", "per round"])],
          live[0].rows.map((row) => [
            labels[row.variant] ?? row.variant,
            ...live.flatMap((p) => {
              const r = p.rows.find((other) => other.variant === row.variant);
              const q = r.cpuRatioPerRound;
              return [ms(r.cpuMs), x(r.cpuRatio), `${fmt(q.median)} [${fmt(q.q1)}–${fmt(q.q3)}]`];
            }),
          ]),
        ),
      );
    }
    for (const p of f.platforms.filter((p) => p.skipped)) parts.push(`(a platform was skipped: ${p.skipped})`);
    return parts.join("\n");
  },
  growth(f) {
    const parts = [`2. Growth with history: CPU per turn at each history size (median of ${f.rounds} × ${f.turnsPerRound} turns per cell, variants interleaved); in brackets June's CPU over raw streamText with the same messages (fileStore with fsync off)`];
    for (const context of [...new Set(f.rows.map((r) => r.context))]) {
      const rows = f.rows.filter((r) => r.context === context);
      const variants = [...new Set(rows.map((r) => r.variant))];
      parts.push(
        table(
          [context, ...variants.map((v) => GROWTH_LABELS[v] ?? v)],
          f.sizes.map((size) => [
            `${size.toLocaleString("en-US")} turns`,
            ...variants.map((v) => {
              const r = rows.find((row) => row.size === size && row.variant === v);
              return v === "raw" ? ms(r.cpuMs) : `${ms(r.cpuMs)} (${r.cpuOverFloorMs >= 0 ? "+" : ""}${fmt(r.cpuOverFloorMs)})`;
            }),
          ]),
        ),
      );
    }
    return parts.join("\n\n");
  },
  sessions(f) {
    const opens = f.opens ?? [f.open];
    const rows = [
      ...opens.flatMap((open) => [
        [`open a ${open.turns.toLocaleString("en-US")}-turn fileStore session, fresh process`, ms(open.openMs), `read + JSON.parse the journal: ${ms(open.floorMs)}`, x(open.ratio)],
        ["  … and read its turns()", ms(open.openAndTurnsMs), "", ""],
      ]),
      ["  (import june/chat in that process)", ms(f.open.importMs), "", ""],
      [`list ${f.listFile.sessions.toLocaleString("en-US")} fileStore sessions, fresh process`, ms(f.listFile.freshProcessMs), `readdir + stat each: ${ms(f.listFile.floorMs)}`, x(f.listFile.freshProcessRatio)],
      ["  … with no index file (reads every journal)", ms(f.listFile.noIndexMs), "", x(f.listFile.noIndexRatio)],
      ["  … again in the same process", ms(f.listFile.sameProcessMs), "", ""],
      ["  … a page of 20", ms(f.listFile.pageOf20Ms), "", ""],
      [`list ${f.listMemory.sessions.toLocaleString("en-US")} memoryStore sessions`, ms(f.listMemory.listMs), `copy + sort the infos: ${ms(f.listMemory.floorMs)}`, x(f.listMemory.ratio)],
      [
        `heap per idle open session (${f.heap.sessions.toLocaleString("en-US")} × ${f.heap.turnsEach} turns, ${fmt(f.heap.journalBytesEach)} B journal)`,
        fmt(f.heap.bytesPerSession, " B"),
        `journal as parsed JSON: ${fmt(f.heap.floorBytesPerSession, " B")}`,
        x(f.heap.ratio),
      ],
      ...(f.heapMemory
        ? [
            [
              `heap per idle memoryStore session, store included (${f.heapMemory.sessions.toLocaleString("en-US")} × ${f.heapMemory.turnsEach} turns)`,
              fmt(f.heapMemory.bytesPerSession, " B"),
              `journal as parsed JSON: ${fmt(f.heapMemory.floorBytesPerSession, " B")}`,
              x(f.heapMemory.ratio),
            ],
            ["  … of which the store's journal / the open session", `${fmt(f.heapMemory.storeBytesPerSession, " B")} / ${fmt(f.heapMemory.openBytesPerSession, " B")}`, "", ""],
          ]
        : []),
    ];
    return ["3. Sessions (medians over fresh processes)", table(["figure", "June", "baseline", "ratio"], rows)].join("\n");
  },
  streaming(f) {
    const names = { raw: "raw streamText", model: "createChat (modelResponder)", agent: "agentResponder turn", start: "bare start()" };
    const long = table(
      ["driver", "CPU", "wall", "CPU ratio", "commits", "text-delta events"],
      f.long.rows.map((r) => [names[r.variant], ms(r.cpuMs), ms(r.wallMs), x(r.cpuRatio), fmt(r.commits), fmt(r.textDeltaEvents)]),
    );
    const chunked = f.long.chunked
      ? `The same reply in ${f.long.chunked.chunks} chunks 1 ms apart: bare start() ${f.long.chunked.startCommits} commits; agentResponder turn ${f.long.chunked.agentCommits} run-updates, ${f.long.chunked.agentTextDeltaEvents} text-deltas.`
      : "";
    const first = table(
      ["driver", "first delta → first text-delta", "max", "over raw"],
      f.firstDelta.rows.map((r) => [names[r.variant], ms(r.ms), ms(r.maxMs), ms(r.overFloorMs)]),
    );
    return [
      `4. Streaming: one ${f.long.deltas.toLocaleString("en-US")}-delta reply, all deltas at once (medians)`,
      long,
      chunked,
      "",
      `Latency: the model waits ${f.firstDelta.firstDelayMs} ms, then streams 10 deltas 1 ms apart; time from its first delta to the consumer's first text-delta (median)`,
      first,
    ].join("\n");
  },
  guardrails(f) {
    const names = { none: "no guardrail", end: 'output guardrail, stream: "end"', hold: 'output guardrail, stream: "hold"' };
    return [
      `11. Guardrails: a ${f.deltas}-delta reply streamed 1 ms apart, one output check of ${f.checkMs} ms once the reply is whole (medians)`,
      table(
        ["variant", "send → first text-delta", "send → turn end", "text-delta events", "chars/s while streaming"],
        f.rows.map((r) => [names[r.variant], ms(r.firstDeltaMs), ms(r.turnMs), fmt(r.textDeltaEvents), r.charsPerSecond === null ? "all at once" : fmt(r.charsPerSecond)]),
      ),
    ].join("\n");
  },
  recall(f) {
    const names = { none: "no memory", working: "working memory", recall: "working memory + recall (topK 3)" };
    return [
      `15. Recall: a model-chat turn on a memoryStore, ${f.indexed} turns in the owner's recall index, each embedding call ${f.embedMs} ms (medians over ${f.turns} turns; ratios to no memory)`,
      table(
        ["variant", "send → result", "CPU/turn", "wall ratio", "CPU ratio", "embedding calls/turn", "on the turn's path"],
        f.rows.map((r) => [names[r.variant], ms(r.wallMs), ms(r.cpuMs), x(r.wallRatio), x(r.cpuRatio), fmt(r.embedCallsPerTurn), fmt(r.onPathPerTurn)]),
      ),
    ].join("\n");
  },
  queued(f) {
    if (f.skipped) return `14. Queued turns: skipped: ${f.skipped}`;
    return [
      `14. Queued turns: one model-chat turn over postgresStore, sent directly and enqueued for a worker (june/worker, pg-boss; enqueue → the worker's onJob), median of ${f.turns} turns each; ratio to direct`,
      table(
        ["turn", "wall/turn", "ratio", "over direct"],
        f.rows.map((r) => [r.kind, ms(r.wallMs), x(r.ratio), r.overMs === undefined ? "" : ms(r.overMs)]),
      ),
    ].join("\n");
  },
  durable(f) {
    return [
      `10. Durable turns: one turn of a two-step agent workflow (${f.deltas}-delta streamed reply, no approvals), plain and agentResponder({ durable: true }), median over ${f.rounds} rounds of ${f.turnsPerRound} turns; ratios to the plain turn on the same store`,
      table(
        ["store", "turn", "CPU/turn", "wall/turn", "CPU ratio", "wall ratio", "wall over plain"],
        f.rows.map((r) => [r.store === "file" ? "fileStore (fsync)" : "memoryStore", r.kind, ms(r.cpuMs), ms(r.wallMs), x(r.cpuRatio), x(r.wallRatio), ms(r.wallOverPlainMs)]),
      ),
    ].join("\n");
  },
  subagent(f) {
    return [
      `11. Sub-workflow calls: one run of a one-step workflow whose model calls one tool, a plain <Tool> or a workflow as a tool (<Tool agent>), median over ${f.rounds} rounds of ${f.runsPerRound} runs; ratios to (a)`,
      table(
        ["tool", "CPU/run", "wall/run", "CPU ratio", "wall ratio", "CPU over (a)"],
        f.rows.map((r) => [r.label, ms(r.cpuMs), ms(r.wallMs), x(r.cpuRatio), x(r.wallRatio), ms(r.cpuOverFloorMs)]),
      ),
    ].join("\n");
  },
  mcp(f) {
    return [
      `9. MCP tools: one run of a one-step workflow whose model calls one tool, median over ${f.rounds} rounds of ${f.runsPerRound} runs (this process's CPU; the server's is not counted)`,
      table(
        ["tool", "CPU/run", "wall/run", "wall ratio", "wall over (a)"],
        f.rows.map((r) => [r.label, ms(r.cpuMs), ms(r.wallMs), x(r.wallRatio), ms(r.wallOverFloorMs)]),
      ),
    ].join("\n");
  },
  telemetry(f) {
    const names = { model: "model chat", agent: "agent chat (one step)" };
    return [
      `7. Telemetry: one turn of a ${f.deltas}-delta scripted reply over memoryStore, median over ${f.rounds} rounds of ${f.turnsPerRound} turns; ratios to telemetry: false`,
      table(
        ["chat", "telemetry", "CPU/turn", "wall/turn", "CPU ratio", "wall ratio", "CPU over off"],
        f.rows.map((r) => [names[r.responder], r.label, ms(r.cpuMs), ms(r.wallMs), x(r.cpuRatio), x(r.wallRatio), ms(r.cpuOverOffMs)]),
      ),
      ...(f.emptyRuns
        ? [
            "",
            `The no-op path alone: CPU per run of an empty workflow (start([])), median over ${f.rounds} rounds of ${f.runsPerRound} runs`,
            table(
              ["telemetry", "CPU/run", "CPU over off", "CPU ratio"],
              f.emptyRuns.map((r) => [r.label, fmt(r.cpuUs, " µs"), fmt(r.cpuOverOffUs, " µs"), x(r.cpuRatio)]),
            ),
          ]
        : []),
    ].join("\n");
  },
  startup(f) {
    return [
      `5. Start-up: median of ${f.runs} runs each`,
      table(
        ["command", "first stdout byte", "exit", "exit over node -e 0", "exit / bare script"],
        f.rows.map((r) => [r.label, ms(r.firstByteMs), ms(r.exitMs), ms(r.exitOverNodeMs), x(r.exitRatioToBare)]),
      ),
      "",
      "Where it goes: one import in a fresh process (median)",
      table(["module", "import"], (f.imports ?? []).map((r) => [r.module, ms(r.importMs)])),
    ].join("\n");
  },
  memory(f) {
    const names = { chat: "the chat alone (one open session)", handler: "createChatHandler (a request per turn)" };
    return [
      `7. Memory of one long session: ${f.turns.toLocaleString("en-US")} turns of ${f.inputChars.toLocaleString("en-US")}-character inputs, heapUsed after gc over the empty session (fresh process each)`,
      table(
        ["driver", "heap/turn at half", "heap/turn at the end", "heap", "RSS"],
        f.rows.map((r) => [names[r.variant] ?? r.variant, fmt(r.halfBytesPerTurn, " B"), fmt(r.bytesPerTurn, " B"), fmt(r.heapMB, " MB"), fmt(r.rssMB, " MB")]),
      ),
      `handler / chat alone: ${x(f.ratio)}`,
    ].join("\n");
  },
  concurrency(f) {
    const parts = [
      `8. Concurrency: N sessions at once in one process, ${f.turns} turns each back to back (${f.deltas}-delta reply, no delay), median of ${f.repeats} runs; latency is one turn, send to result`,
    ];
    for (const sessions of f.sizes) {
      const rows = f.rows.filter((r) => r.sessions === sessions);
      parts.push(
        table(
          [`${sessions} sessions`, "turns/s", "vs raw", "CPU/turn", "CPU vs raw", "mean", "p50", "p99", "p99 / mean"],
          rows.map((r) => [r.label, fmt(r.turnsPerSecond), x(r.ratio), ms(r.cpuMsPerTurn), x(r.cpuRatio), ms(r.meanMs), ms(r.p50Ms), ms(r.p99Ms), x(r.p99OverMean)]),
        ),
      );
    }
    if (f.postgres) parts.push(`PostgreSQL round trips per turn (statements on the pool, one session, median of ${f.postgres.perTurn.length} turns): ${fmt(f.postgres.roundTripsPerTurn)}`);
    else parts.push("PostgreSQL: not reachable in this run (no postgresStore rows, no round-trip count).");
    return parts.join("\n\n");
  },
  "ui-chat"(f) {
    const parts = [
      `12. /ui-chat against a plain AI SDK server (toUIMessageStreamResponse): server CPU per turn of a ${f.deltas}-delta reply over 127.0.0.1, median of ${f.rounds} rounds, variants alternating; the A/A row is a second plain server (the run's noise)`,
    ];
    for (const clients of [...new Set(f.rows.map((r) => r.clients))]) {
      const rows = f.rows.filter((r) => r.clients === clients);
      parts.push(
        table(
          [`${clients} client(s) × ${rows[0].turns} turns`, "server CPU/turn", "vs plain", "wall/turn", "ratio per round"],
          rows.map((r) => [r.label, ms(r.cpuMs), x(r.cpuRatio), ms(r.wallMs), r.ratios.map((v) => fmt(v)).join(" ")]),
        ),
      );
    }
    return parts.join("\n\n");
  },
};
