import { readFileSync } from "node:fs";
import { defineCommand, renderUsage, runCommand, type ArgsDef, type CommandDef } from "citty";
import { checkFlags } from "./args.js";
import { askCommand } from "./commands/ask.js";
import { chatCommand } from "./commands/chat.js";
import { datasetCommand } from "./commands/dataset.js";
import { evalCommand } from "./commands/eval.js";
import { runCommand as runWorkflowCommand } from "./commands/run.js";
import { sessionsCommand } from "./commands/sessions.js";
import { studioCommand } from "./commands/studio.js";
import { createColors, stripAnsi } from "./colors.js";
import { CliUsageError, isCliExitError } from "./errors.js";
import { colorEnabled, type CliIO } from "./io.js";
import { otlpTracesUrl } from "./otlp-endpoint.js";
import { describeFailure, renderErrorLine } from "./render.js";

/** The package's version, from its package.json (two levels up from both `src/cli` and `dist/cli`). */
export function juneVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version?: string };
  return pkg.version ?? "0.0.0";
}

const MODELS_HELP = `MODELS

  --model PROVIDER:ID (or JUNE_MODEL) names a model:
    openai:gpt-5-mini              OPENAI_API_KEY (OPENAI_BASE_URL)
    anthropic:claude-sonnet-4-5    ANTHROPIC_API_KEY (ANTHROPIC_BASE_URL)
    google:gemini-2.5-flash        GOOGLE_GENERATIVE_AI_API_KEY (GOOGLE_GENERATIVE_AI_BASE_URL)
    ollama:llama3.2                a local Ollama: OLLAMA_BASE_URL, or OLLAMA_HOST + /v1, or http://127.0.0.1:11434/v1
    openai-compatible:ID           --base-url URL (or OPENAI_COMPATIBLE_BASE_URL), OPENAI_COMPATIBLE_API_KEY if needed
  With no file, chat, ask and studio talk to that model. With a file, the model reaches the module when its
  default export is a function: ({ model }) => Chat | Responder for chat, ask and studio (called with {}
  when no model is named), a component taking { input, model } for run. A module exporting a Chat, a
  Responder or a workflow element chooses its own model: --model with it is an error.`;

const TELEMETRY_HELP = `TELEMETRY

  OTEL_EXPORTER_OTLP_ENDPOINT (or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) sends every turn's and run's spans over
  OTLP/HTTP; OTEL_EXPORTER_OTLP_HEADERS adds headers, OTEL_SERVICE_NAME names the service (default june).`;

/** The commands that export spans when the environment names an OTLP endpoint. */
const TELEMETRY_COMMANDS = new Set(["chat", "ask", "run", "studio"]);

const EXIT_HELP = `EXIT CODES

  0 done · 1 the turn or run failed · 2 bad usage or configuration · 130 canceled (Ctrl-C)`;

const OUTPUT_HELP = `OUTPUT

  stdout carries the reply alone, streamed; stderr carries progress (on a terminal), approvals, errors and
  the session id. Approvals are asked on stderr and answered from the terminal; with no terminal and neither
  --yes nor --deny, each is denied ("no one to approve"). Ctrl-C cancels the running turn; a second quits.
  NO_COLOR turns colors off.`;

/** Text citty cannot render, shown after a command's usage. */
const EPILOGS: Record<string, string> = {
  june: `${OUTPUT_HELP}\n\n${MODELS_HELP}\n\n${EXIT_HELP}`,
  chat: `${MODELS_HELP}\n\n${OUTPUT_HELP}\n\n${TELEMETRY_HELP}\n\n${EXIT_HELP}`,
  ask: `${MODELS_HELP}\n\n${OUTPUT_HELP}\n\n${TELEMETRY_HELP}\n\n${EXIT_HELP}`,
  studio: `${MODELS_HELP}\n\n${TELEMETRY_HELP}`,
  run: `${MODELS_HELP}\n\n${OUTPUT_HELP}\n\n${TELEMETRY_HELP}\n\n${EXIT_HELP}`,
  eval: `EXIT CODES\n\n  0 done · 1 a scorer's mean missed --min · 2 bad usage, a bad cases file or configuration · 130 canceled (Ctrl-C)`,
};

/** The `june` command tree, with `io` given to every command. */
export function juneCommand(io: CliIO): CommandDef {
  return defineCommand({
    meta: { name: "june", version: juneVersion(), description: "Run June workflows and chats" },
    subCommands: {
      run: runWorkflowCommand(io),
      chat: chatCommand(io),
      ask: askCommand(io),
      studio: studioCommand(io),
      sessions: sessionsCommand(io),
      dataset: datasetCommand(io),
      eval: evalCommand(io),
    },
  }) as CommandDef;
}

export interface RunCliOptions {
  /** The arguments after `june`. */
  argv: readonly string[];
  io: CliIO;
}

/** The leaf command the arguments name, its parent, the arguments left for it, and its path. */
interface Found {
  command: CommandDef;
  parent?: CommandDef;
  rest: string[];
  path: string[];
}

async function resolved<T>(value: T | Promise<T> | (() => T) | (() => Promise<T>) | undefined): Promise<T | undefined> {
  return typeof value === "function" ? (value as () => T | Promise<T>)() : value;
}

async function findCommand(root: CommandDef, argv: readonly string[]): Promise<Found> {
  let found: Found = { command: root, rest: [...argv], path: [] };
  for (;;) {
    const subCommands = await resolved(found.command.subCommands);
    if (!subCommands) return found;
    const first = found.rest[0];
    if (first === undefined || first.startsWith("-")) return found;
    const sub = subCommands[first];
    if (!sub) {
      const where = found.path.length > 0 ? `june ${found.path.join(" ")}` : "june";
      throw new CliUsageError(`Unknown command "${first}" (see ${where} --help)`);
    }
    found = { command: (await resolved(sub)) as CommandDef, parent: found.command, rest: found.rest.slice(1), path: [...found.path, first] };
  }
}

function wantsHelp(rest: readonly string[]): boolean {
  for (const arg of rest) {
    if (arg === "--") return false;
    if (arg === "--help" || arg === "-h") return true;
  }
  return false;
}

async function usageOf(found: Found, colors: boolean): Promise<string> {
  const usage = await renderUsage(found.command, found.parent);
  const name = found.path.at(-1) ?? "june";
  const epilog = EPILOGS[name];
  const text = `${usage}${epilog ? `\n\n${epilog}` : ""}\n`;
  return colors ? text : stripAnsi(text);
}

/**
 * Runs `june` with `argv` and returns the exit code: 0 done, 1 the turn or run failed, 2 bad usage or
 * configuration (one line on stderr, never a stack trace), 130 canceled. Never touches `process`.
 */
export async function runCli(options: RunCliOptions): Promise<number> {
  const { io } = options;
  const errColors = createColors(colorEnabled(io.env, io.stderr));
  const root = juneCommand(io);
  let otlp: { shutdown(): Promise<void> } | undefined;
  try {
    const found = await findCommand(root, options.argv);
    if (wantsHelp(found.rest)) {
      io.stdout.write(await usageOf(found, colorEnabled(io.env, io.stdout)));
      return 0;
    }
    if (found.path.length === 0 && found.rest.length === 1 && ["--version", "-v"].includes(found.rest[0]!)) {
      io.stdout.write(`${juneVersion()}\n`);
      return 0;
    }
    if (found.command.subCommands && !found.command.run) {
      const where = ["june", ...found.path].join(" ");
      const names = Object.keys((await resolved(found.command.subCommands)) ?? {}).join(", ");
      const extra = found.rest[0];
      if (found.path.length === 0 && extra === undefined) {
        io.stderr.write(await usageOf(found, colorEnabled(io.env, io.stderr)));
      }
      const problem = extra ? `Unknown option ${extra} for "${where}"` : `${where}: pass a command (${names})`;
      io.stderr.write(`${renderErrorLine(`${problem}; see ${where} --help`, errColors)}\n`);
      return 2;
    }
    const args = ((await resolved(found.command.args)) ?? {}) as ArgsDef;
    checkFlags(found.rest, args, found.path.join(" "));
    otlp = await otlpExport(io, found.path[0]);
    const { result } = await runCommand(found.command, { rawArgs: found.rest });
    return typeof result === "number" ? result : 0;
  } catch (error) {
    if (isCliExitError(error) || (error instanceof Error && error.name === "CLIError")) {
      io.stderr.write(`${renderErrorLine(stripAnsi((error as Error).message), errColors)}\n`);
      return 2;
    }
    io.stderr.write(`${renderErrorLine(describeFailure(error), errColors)}\n`);
    return 1;
  } finally {
    await otlp?.shutdown();
  }
}

/** Starts the OTLP export for a command that runs turns, when the environment names an endpoint (see otlp-export.ts). */
async function otlpExport(io: CliIO, command: string | undefined): Promise<{ shutdown(): Promise<void> } | undefined> {
  if (command === undefined || !TELEMETRY_COMMANDS.has(command)) return undefined;
  const url = otlpTracesUrl(io.env);
  if (url === undefined) return undefined;
  const { startOtlpExport } = await import("./otlp-export.js");
  return startOtlpExport({ url, env: io.env, version: juneVersion() });
}
