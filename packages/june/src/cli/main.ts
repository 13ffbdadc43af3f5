import { runCommand, type ArgsDef, type CommandDef } from "citty";
import { checkFlags } from "./args.js";
import { juneCommand } from "./commands/june.js";
import { createColors, stripAnsi } from "./colors.js";
import { CliUsageError, isCliExitError } from "./errors.js";
import { colorEnabled, type CliIO, type ProcessIO } from "./io.js";
import { helpOf, renderHelp, resolved, usageLine } from "./help.js";
import { otlpTracesUrl } from "./otlp-endpoint.js";
import type { TextRedactOptions } from "../redaction/redact.js";
import { outputGate } from "./output-gate.js";
import { redactOptionsOf } from "./redact-patterns.js";
import { describeFailure, renderErrorLine } from "./render.js";
import { closestName } from "./suggest.js";
import { juneVersion } from "./version.js";

export { juneCommand } from "./commands/june.js";
export { juneVersion } from "./version.js";

/** The commands that export spans when the environment names an OTLP endpoint. */
const TELEMETRY_COMMANDS = new Set(["chat", "ask", "resume", "run", "studio"]);

export interface RunCliOptions {
  /** The arguments after `june`. */
  argv: readonly string[];
  /** The process's streams, environment and signals (`bin.ts`'s, or a test's fake). */
  io: ProcessIO;
}

/** The leaf command the arguments name, its parent, the arguments left for it, and its path. */
interface Found {
  command: CommandDef;
  parent?: CommandDef;
  rest: string[];
  path: string[];
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
      const guess = closestName(first, Object.keys(subCommands));
      const hint = guess === undefined ? "" : `: did you mean "${where} ${guess}"?`;
      throw new CliUsageError(`Unknown command "${first}"${hint} (see ${where} --help)`);
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

async function usageOf(found: Found, output: CliIO["stdout"], env: CliIO["env"]): Promise<string> {
  const subCommands = await resolved(found.command.subCommands);
  const commands: [string, string][] = [];
  for (const [name, sub] of Object.entries(subCommands ?? {})) {
    const meta = await resolved(((await resolved(sub)) as CommandDef).meta);
    commands.push([name, meta?.description ?? ""]);
  }
  const help = await helpOf(found.command);
  return renderHelp({
    path: found.path.length > 0 ? found.path.join(" ") : "june",
    ...(help ? { help } : {}),
    args: ((await resolved(found.command.args)) ?? {}) as ArgsDef,
    commands,
    version: juneVersion(),
    colors: createColors(colorEnabled(env, output)),
    columns: output.columns,
  });
}

/** citty's "Missing required positional argument: FILE", said with the command's usage and an example. */
async function missingArgument(error: Error, found: Found | undefined): Promise<string | undefined> {
  const name = /^Missing required positional argument: (\S+)$/.exec(error.message)?.[1];
  if (name === undefined || found === undefined) return undefined;
  const key = found.path.join(" ");
  const help = await helpOf(found.command);
  const example = help?.examples[0]?.[0];
  return `june ${key} needs <${name.toLowerCase()}>: ${usageLine(key, help)}${example ? ` (e.g. ${example})` : ""}`;
}

/**
 * Runs `june` with `argv` and returns the exit code: 0 done, 1 the turn or run failed, 2 bad usage or
 * configuration (one line on stderr, never a stack trace), 130 canceled. Never touches `process`.
 */
export async function runCli(options: RunCliOptions): Promise<number> {
  // The redaction options, resolved once: every line printed, by any command, leaves through the gate.
  // A bad JUNE_REDACT is the command's usage error (exit 2); `--help` still prints, masked with June's patterns.
  let badRedact: { error: unknown } | undefined;
  let redaction: TextRedactOptions = {};
  try {
    redaction = redactOptionsOf(options.io.env);
  } catch (error) {
    badRedact = { error };
  }
  const io = outputGate(options.io, redaction);
  const errColors = createColors(colorEnabled(io.env, io.stderr));
  const root = juneCommand(io);
  let leaf: Found | undefined;
  let otlp: { shutdown(): Promise<void> } | undefined;
  try {
    const found = await findCommand(root, options.argv);
    leaf = found;
    if (wantsHelp(found.rest)) {
      io.stdout.write(await usageOf(found, io.stdout, io.env));
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
        io.stderr.write(await usageOf(found, io.stderr, io.env));
      }
      const problem = extra ? `Unknown option ${extra} for "${where}"` : `${where}: pass a command (${names})`;
      io.stderr.write(`${renderErrorLine(`${problem}; see ${where} --help`, errColors)}\n`);
      return 2;
    }
    const args = ((await resolved(found.command.args)) ?? {}) as ArgsDef;
    checkFlags(found.rest, args, found.path.join(" "));
    if (badRedact) throw badRedact.error;
    otlp = await otlpExport(io, found.path[0]);
    const { result } = await runCommand(found.command, { rawArgs: found.rest });
    return typeof result === "number" ? result : 0;
  } catch (error) {
    // citty's usage errors are a class it does not export (no marker to check): its stable name is all there is.
    if (isCliExitError(error) || (error instanceof Error && error.name === "CLIError")) {
      const message = (await missingArgument(error as Error, leaf)) ?? stripAnsi((error as Error).message);
      io.stderr.write(`${renderErrorLine(message, errColors)}\n`);
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
