import type { ArgsDef } from "citty";
import { CliUsageError } from "./errors.js";
import { closestName } from "./suggest.js";

/** The extensions a module given on the command line may have. */
export const MODULE_EXTENSIONS = [".ts", ".tsx", ".mts", ".js", ".jsx", ".mjs"] as const;

/** True when `arg` names a module by its extension (`.ts`, `.tsx`, `.js`, `.mjs`, ...). */
export function looksLikeModule(arg: string): boolean {
  const lower = arg.toLowerCase();
  return MODULE_EXTENSIONS.some((ext) => lower.endsWith(ext));
}

/**
 * The one optional module argument of `june chat`, `studio` and `dataset`: more than one positional, or one
 * that is not a module, is a `CliUsageError` naming it. `hint` ends the not-a-module message.
 */
export function optionalModuleArg(positionals: readonly string[], command: string, hint = ""): string | undefined {
  if (positionals.length > 1) throw new CliUsageError(`Unexpected argument "${positionals[1]}": june ${command} takes one file`);
  const file = positionals[0];
  if (file !== undefined && !looksLikeModule(file)) {
    throw new CliUsageError(`"${file}" is not a module: june ${command} takes a .ts, .tsx, .js or .mjs file${hint}`);
  }
  return file;
}

const camel = (name: string) => name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/**
 * Checks raw arguments against a command's definition, which citty does not do: an unknown flag, a flag
 * that needs a value and has none, or a boolean given a value is a `CliUsageError` naming it. Everything
 * after `--` is positional.
 */
export function checkFlags(rawArgs: readonly string[], args: ArgsDef, command: string): void {
  const flags = new Map<string, ArgsDef[string]>();
  for (const [name, def] of Object.entries(args)) {
    if (def.type === "positional") continue;
    for (const alias of [name, camel(name), kebab(name), ...toArray((def as { alias?: string | string[] }).alias)]) {
      flags.set(alias, def);
    }
  }
  for (let i = 0; i < rawArgs.length; i++) {
    const arg = rawArgs[i]!;
    if (arg === "--") return;
    if (!arg.startsWith("-") || arg === "-" || /^-\d/.test(arg)) continue;
    const body = arg.replace(/^--?/, "");
    const eq = body.indexOf("=");
    const name = eq === -1 ? body : body.slice(0, eq);
    let def = flags.get(name);
    if (!def && name.startsWith("no-") && flags.get(name.slice(3))?.type === "boolean") def = flags.get(name.slice(3));
    if (!def) {
      const guess = closestName(name, [...flags.keys()].filter((flag) => flag.length > 1 && flag === kebab(flag)));
      const hint = guess === undefined ? "" : `: did you mean --${guess}?`;
      throw new CliUsageError(`Unknown option ${dashed(name)} for "${command}"${hint} (see june ${command} --help)`);
    }
    if (def.type === "boolean") {
      if (eq !== -1 && !["true", "false"].includes(body.slice(eq + 1))) {
        throw new CliUsageError(`Option ${dashed(name)} takes no value`);
      }
      continue;
    }
    if (eq !== -1) {
      if (body.slice(eq + 1) === "") throw new CliUsageError(`Option ${dashed(name)} needs a value`);
      continue;
    }
    const value = rawArgs[i + 1];
    if (value === undefined || (value.startsWith("-") && value !== "-" && !/^-\d/.test(value))) {
      throw new CliUsageError(`Option ${dashed(name)} needs a value`);
    }
    i++;
  }
}

function dashed(name: string): string {
  return name.length === 1 ? `-${name}` : `--${name}`;
}

function toArray<T>(value: T | T[] | undefined): T[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

/**
 * Every value of a repeatable flag (`--NAME VALUE` and `--NAME=VALUE`) before `--`, in order: citty keeps only
 * the last of a repeated flag.
 */
export function flagValues(rawArgs: readonly string[], name: string): string[] {
  const values: string[] = [];
  for (let i = 0; i < rawArgs.length; i++) {
    const arg = rawArgs[i]!;
    if (arg === "--") break;
    if (arg === `--${name}`) {
      const value = rawArgs[++i];
      if (value !== undefined) values.push(value);
    } else if (arg.startsWith(`--${name}=`)) values.push(arg.slice(name.length + 3));
  }
  return values;
}

/** The positional arguments of `june ask [file] <input...>`, split. */
export interface AskPositionals {
  file?: string;
  input: string;
}

/**
 * Splits `ask`'s positionals: the first is the module when it ends in a module extension, and the rest,
 * joined with spaces, is the input. `june ask "Deploy it"` has no file; `june ask chat.tsx Deploy it` has one.
 * `filesOnly`: files are attached (`--file`), so the input may be empty.
 */
export function splitAskPositionals(positionals: readonly string[], options: { filesOnly?: boolean } = {}): AskPositionals {
  const [first, ...rest] = positionals;
  const hasFile = first !== undefined && looksLikeModule(first);
  const words = hasFile ? rest : positionals;
  const input = words.join(" ").trim();
  if (input === "" && !options.filesOnly) {
    throw new CliUsageError(`Nothing to ask: pass the input, e.g. june ask ${hasFile ? `${first} ` : ""}"What is June?"`);
  }
  return hasFile ? { file: first, input } : { input };
}

/** `--yes` / `--deny`: how tool approvals are answered. */
export type ApprovalMode = "ask" | "yes" | "deny";

/** Reads `--yes` and `--deny`; both at once is a `CliUsageError`. */
export function approvalMode(args: { yes?: boolean; deny?: boolean }): ApprovalMode {
  if (args.yes && args.deny) throw new CliUsageError("Pass --yes or --deny, not both");
  return args.yes ? "yes" : args.deny ? "deny" : "ask";
}

/** Parses `--port`: an integer from 0 to 65535. */
export function parsePort(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const port = Number(value);
  if (!/^\d+$/.test(value) || !Number.isInteger(port) || port > 65535) {
    throw new CliUsageError(`Bad --port "${value}": expected a number from 0 to 65535`);
  }
  return port;
}
