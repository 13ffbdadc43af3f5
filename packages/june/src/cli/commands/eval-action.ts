import { readFile, writeFile } from "node:fs/promises";
import { resolve as resolvePath } from "node:path";
import type { CommandContext } from "citty";
import { evaluate } from "../../learning/evaluate.js";
import { parseJSONL } from "../../learning/jsonl.js";
import { exactMatch, includes, jsonMatch, regex } from "../../learning/scorers.js";
import type { EvalCase, EvalReport, Scorer } from "../../learning/types.js";
import { looksLikeModule } from "../args.js";
import { createColors, type Colors } from "../colors.js";
import { EvalCaseFormatError } from "../../learning/errors.js";
import { CanceledError } from "../../runtime/errors.js";
import { CliUsageError, ModuleLoadError } from "../errors.js";
import { colorEnabled, type CliIO } from "../io.js";
import { importModule } from "../load-module.js";
import { oneLine, renderErrorLine } from "../render.js";
import { resolveChat } from "../resolve-chat.js";
import { Screen } from "../screen.js";
import type { evalArgs } from "./eval.js";
import { SCORER_HELP, scorerSpecs } from "./scorer-flag.js";

/** How many failed cases are listed on stderr. */
const SHOWN_FAILURES = 5;

/**
 * The scorers `--scorer` names (repeatable, or comma-separated): the module's own (its `scorers` export)
 * by name, else a built-in. With none named, the module's scorers, else `exactMatch`.
 */
export function pickScorers(specs: readonly string[], moduleScorers: Readonly<Record<string, Scorer>>): Record<string, Scorer> {
  if (specs.length === 0) return Object.keys(moduleScorers).length > 0 ? { ...moduleScorers } : { exactMatch: exactMatch() };
  const picked: Record<string, Scorer> = {};
  for (const spec of specs) picked[spec] = scorerFor(spec, moduleScorers);
  return picked;
}

function scorerFor(spec: string, moduleScorers: Readonly<Record<string, Scorer>>): Scorer {
  const own = moduleScorers[spec];
  if (own) return own;
  const colon = spec.indexOf(":");
  const name = colon === -1 ? spec : spec.slice(0, colon);
  const arg = colon === -1 ? undefined : spec.slice(colon + 1);
  switch (name) {
    case "exactMatch":
      if (arg === undefined) return exactMatch();
      break;
    case "jsonMatch":
      if (arg === undefined) return jsonMatch();
      break;
    case "includes":
      return arg === undefined || arg === "" ? includes() : includes(arg);
    case "regex":
      if (arg === undefined || arg === "") throw new CliUsageError(`--scorer regex needs a pattern: --scorer 'regex:^Hello'`);
      try {
        return regex(arg);
      } catch (error) {
        throw new CliUsageError(`--scorer ${spec}: ${(error as Error).message}`);
      }
    case "llmJudge":
      throw new CliUsageError(
        "--scorer llmJudge needs a model and a rubric: export it from the module, e.g. export const scorers = { judge: llmJudge({ model, rubric }) }, then --scorer judge",
      );
  }
  throw new CliUsageError(`Unknown scorer "${spec}": use ${SCORER_HELP}`);
}

/** A number flag from 0 to 1 (`--min`, `--threshold`). */
function unitFlag(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === "" || !(n >= 0 && n <= 1)) throw new CliUsageError(`${flag} must be a number from 0 to 1, got "${value}"`);
  return n;
}

function concurrencyFlag(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1) throw new CliUsageError(`--concurrency must be a whole number, 1 or more, got "${value}"`);
  return n;
}

/** The report's per-scorer stats as a table: one row per scorer (mean, min, max, passes at its threshold). */
export function renderEvalStats(report: EvalReport, colors: Colors = createColors(false)): string {
  const header = ["scorer", "mean", "min", "max", "pass"];
  const rows = Object.entries(report.stats).map(([name, s]) => [
    name,
    s.mean.toFixed(2),
    s.min.toFixed(2),
    s.max.toFixed(2),
    `${s.passed}/${s.count} (≥${s.threshold})`,
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: string[]) => cells.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join("  ").trimEnd();
  return [colors.bold(line(header)), ...rows.map(line)].map((text) => `${text}\n`).join("");
}

/** The scorers whose mean is below `min`, as lines. */
export function missedMinimum(report: EvalReport, min: number): string[] {
  return Object.entries(report.stats)
    .filter(([, stats]) => stats.mean < min)
    .map(([name, stats]) => `${name} mean ${stats.mean.toFixed(2)} is below --min ${min}`);
}

/** Runs `june eval` (see `evalCommand`) and returns the exit code. */
export async function runEval(io: CliIO, { args, rawArgs }: CommandContext<typeof evalArgs>): Promise<number> {
  const [file, casesFile, extra] = args._;
  if (extra !== undefined) throw new CliUsageError(`Unexpected argument "${extra}": june eval takes a module and a cases file`);
  if (file === undefined || casesFile === undefined) throw new CliUsageError("Usage: june eval <file> <cases.jsonl>");
  if (!looksLikeModule(file)) throw new CliUsageError(`"${file}" is not a module: june eval takes a .ts, .tsx, .js or .mjs file first`);
  const concurrency = concurrencyFlag(args.concurrency);
  const threshold = unitFlag(args.threshold, "--threshold");
  const min = unitFlag(args.min, "--min");
  const specs = scorerSpecs(rawArgs);
  const cases = await readCases(io, casesFile);

  const { chat } = await resolveChat({ io, file, model: args.model, baseUrl: args["base-url"], command: "eval" });
  const scorers = pickScorers(specs, moduleScorers(await importModule({ file, cwd: io.cwd }), file));

  const screen = new Screen(io);
  const controller = new AbortController();
  const stopListening = io.onInterrupt(() => {
    stopListening();
    controller.abort();
    return true;
  });
  let report: EvalReport;
  try {
    report = await evaluate(chat, cases, {
      scorers,
      signal: controller.signal,
      ...(concurrency !== undefined && { concurrency }),
      ...(threshold !== undefined && { threshold }),
      onResult: (_result, done, total) => screen.status(screen.err.dim(`${done}/${total} cases`)),
    });
  } catch (error) {
    if (controller.signal.aborted && CanceledError.isInstance(error)) {
      screen.resetStatus();
      screen.note(screen.err.dim("canceled"));
      return 130;
    }
    throw error;
  } finally {
    stopListening();
    screen.resetStatus();
  }

  // What is printed or written is redacted by the output gate: June's patterns, then the user's own (JUNE_REDACT).
  const safe = io.redact(report);
  if (args.out !== undefined) await writeFile(resolvePath(io.cwd, args.out), `${JSON.stringify(safe, null, 2)}\n`);
  if (args.json) io.stdout.writeRedacted(`${JSON.stringify(safe)}\n`);
  else io.stdout.write(renderEvalStats(safe, createColors(colorEnabled(io.env, io.stdout))));

  const errColors = createColors(colorEnabled(io.env, io.stderr));
  const failures = safe.cases.filter((result) => result.error !== undefined);
  for (const result of failures.slice(0, SHOWN_FAILURES)) {
    const error = result.error!;
    screen.note(errColors.yellow(oneLine(`${result.id}: ${error.scorer ? `scorer ${error.scorer}: ` : ""}${error.name}: ${error.message}`)));
  }
  const seconds = (safe.durationMs / 1000).toFixed(1);
  const failedNote = failures.length > 0 ? ` · ${failures.length} failed` : "";
  screen.note(errColors.dim(`${safe.cases.length} case${safe.cases.length === 1 ? "" : "s"}${failedNote} · ${seconds}s${args.out ? ` · report written to ${args.out}` : ""}`));
  if (min !== undefined) {
    const missed = missedMinimum(safe, min);
    for (const line of missed) screen.note(renderErrorLine(line, errColors));
    if (missed.length > 0) return 1;
  }
  return 0;
}

async function readCases(io: CliIO, casesFile: string): Promise<EvalCase[]> {
  let text: string;
  try {
    text = await readFile(resolvePath(io.cwd, casesFile), "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new CliUsageError(`${casesFile}: ${code === "ENOENT" ? "no such file" : (error as Error).message}`, { cause: error });
  }
  let cases: EvalCase[];
  try {
    cases = parseJSONL(text);
  } catch (error) {
    if (EvalCaseFormatError.isInstance(error)) throw new CliUsageError(`${casesFile}: ${(error as Error).message}`, { cause: error });
    throw error;
  }
  if (cases.length === 0) throw new CliUsageError(`${casesFile} has no cases (make some with june dataset)`);
  return cases;
}

/** The module's `scorers` export: an object of scorer functions by name, if it has one. */
function moduleScorers(module: Record<string, unknown>, file: string): Record<string, Scorer> {
  const value = module.scorers;
  if (value === undefined) return {};
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new ModuleLoadError(`${file}: its \`scorers\` export must be an object of scorers by name`, { file });
  }
  for (const [name, scorer] of Object.entries(value)) {
    if (typeof scorer !== "function") throw new ModuleLoadError(`${file}: scorers.${name} is not a function of (case, reply)`, { file });
  }
  return value as Record<string, Scorer>;
}
