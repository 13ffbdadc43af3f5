import type { ArgsDef, CommandDef, CommandMeta } from "citty";
import type { Colors } from "./colors.js";

/**
 * How a command's `--help` is rendered. Each command writes its own help beside its arguments
 * (`commands/<name>.ts`): what it does, its usage line, examples, and only the notes that concern it; its
 * `meta` comes from it (`commandMeta`), and its options from its argument definitions. `june --help`
 * (`commands/june.ts`) holds what every command shares (models and their keys, output, exit codes).
 */

/** What a command's help says besides its options. */
export interface CommandHelp {
  /** One line: what the command does. */
  summary: string;
  /** Usage lines, each starting with `june`. */
  usage: string[];
  /** Paragraphs after the usage. */
  about?: string[];
  /** `[command, what it does]`. */
  examples: [string, string][];
  /** Extra titled sections. */
  sections?: { title: string; lines: string[] }[];
}

/** The note on `--model` of every command that takes one. */
export const MODEL_NOTE =
  "--model PROVIDER:ID (or JUNE_MODEL): openai, anthropic, google, ollama or openai-compatible; each provider's key and base-URL variables are in june --help.";

/** The exit codes of a command that runs turns. */
export const EXIT_LINE = "0 done · 1 the turn or run failed · 2 bad usage or configuration · 130 canceled (Ctrl-C)";

/** The help of every command, by its path (`"june"`, `"chat"`, `"sessions rm"`). */
/** Wraps `text` into lines of at most `width` characters, every line after the first indented by `indent` spaces. */
function wrap(text: string, width: number, indent: number): string[] {
  const words = text.split(/\s+/).filter(Boolean);
  const lines: string[] = [];
  let line = "";
  for (const word of words) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines.map((l, i) => (i === 0 ? l : `${" ".repeat(indent)}${l}`));
}

/** The options of a command, from its argument definitions: `--name <hint>`, its alias, its description. */
function optionLines(args: ArgsDef, width: number): string[] {
  const rows: [string, string][] = [];
  for (const [name, def] of Object.entries(args)) {
    if (def.type === "positional") continue;
    const alias = (def as { alias?: string | string[] }).alias;
    const aliases = (Array.isArray(alias) ? alias : alias ? [alias] : []).filter((a) => a.length === 1).map((a) => `-${a}, `);
    const hint = def.type === "boolean" ? "" : ` <${(def as { valueHint?: string }).valueHint ?? "value"}>`;
    rows.push([`${aliases.join("")}--${name}${hint}`, def.description ?? ""]);
  }
  rows.push(["-h, --help", "Show this help"]);
  const left = Math.min(28, Math.max(...rows.map(([flag]) => flag.length)));
  return rows.flatMap(([flag, description]) => {
    const pad = flag.length > left ? `\n${" ".repeat(left + 4)}` : " ".repeat(left - flag.length + 2);
    const body = wrap(description, Math.max(30, width - left - 6), left + 4);
    return [`  ${flag}${pad}${body.join("\n")}`];
  });
}

/** A command's `meta`, from its help: its name, and its help's summary as its description. */
export function commandMeta(name: string, help: CommandHelp): CommandMeta & { readonly help: CommandHelp } {
  return { name, description: help.summary, help };
}

/** A citty value that may be given as it is, as a promise or as a function returning either. */
export async function resolved<T>(value: T | Promise<T> | (() => T) | (() => Promise<T>) | undefined): Promise<T | undefined> {
  return typeof value === "function" ? (value as () => T | Promise<T>)() : value;
}

/** The help a command's `meta` carries (see `commandMeta`), if it has one. */
export async function helpOf(command: CommandDef): Promise<CommandHelp | undefined> {
  return ((await resolved(command.meta)) as { help?: CommandHelp } | undefined)?.help;
}

/** Every command's help under `root`, by its path (`"june"`, `"chat"`, `"sessions rm"`), parents first. */
export async function commandHelps(root: CommandDef, path: string[] = []): Promise<[string, CommandHelp][]> {
  const own = await helpOf(root);
  const out: [string, CommandHelp][] = own ? [[path.length > 0 ? path.join(" ") : "june", own]] : [];
  for (const [name, sub] of Object.entries((await resolved(root.subCommands)) ?? {})) {
    out.push(...(await commandHelps((await resolved(sub)) as CommandDef, [...path, name])));
  }
  return out;
}

export interface RenderHelpOptions {
  /** `"june"`, `"chat"`, `"sessions rm"`, ... */
  path: string;
  /** The command's help (`helpOf`). */
  help?: CommandHelp;
  /** The command's arguments (none for a command with subcommands). */
  args?: ArgsDef;
  /** For `june` and `june sessions`: `[name, summary]` of each subcommand. */
  commands?: [string, string][];
  version?: string;
  colors: Colors;
  /** The terminal's width (default 100, at most 120). */
  columns?: number;
}

/** A command's help as text, ending in a newline. */
export function renderHelp(options: RenderHelpOptions): string {
  const { help } = options;
  const { colors } = options;
  const width = Math.min(120, Math.max(60, options.columns ?? 100));
  const title = options.path === "june" ? `june${options.version ? ` ${options.version}` : ""}` : `june ${options.path}`;
  const out: string[] = [`${colors.bold(title)} — ${help?.summary ?? ""}`, ""];
  const heading = (text: string) => out.push(colors.bold(text));
  heading("USAGE");
  for (const line of help?.usage ?? [`june ${options.path}`]) out.push(`  ${line}`);
  if (help?.about) {
    out.push("");
    out.push(...block(help.about, width));
  }
  if (options.commands && options.commands.length > 0) {
    out.push("");
    heading("COMMANDS");
    const left = Math.max(...options.commands.map(([name]) => name.length));
    for (const [name, summary] of options.commands) {
      out.push(`  ${name.padEnd(left)}  ${wrap(summary, width - left - 4, left + 4).join("\n")}`);
    }
    out.push("", `  ${colors.dim(`Run ${options.path === "june" ? "june" : `june ${options.path}`} <command> --help for a command's options and examples.`)}`);
  }
  if (options.args && Object.values(options.args).some((def) => def.type !== "positional")) {
    out.push("");
    heading("OPTIONS");
    out.push(...optionLines(options.args, width));
  }
  if (help && help.examples.length > 0) {
    out.push("");
    heading("EXAMPLES");
    for (const [command, comment] of help.examples) {
      out.push(`  ${command}`);
      out.push(`      ${colors.dim(comment)}`);
    }
  }
  for (const section of help?.sections ?? []) {
    out.push("");
    heading(section.title);
    out.push(...block(section.lines, width));
  }
  return `${out.join("\n")}\n`;
}

/**
 * A block of help text, indented by two: consecutive plain lines are one paragraph, wrapped to `width`;
 * a line that starts with two spaces is kept as it is (a table row); `""` ends a paragraph with a blank line.
 */
function block(lines: readonly string[], width: number): string[] {
  const out: string[] = [];
  let paragraph: string[] = [];
  const flush = () => {
    if (paragraph.length > 0) for (const line of wrap(paragraph.join(" "), width - 2, 0)) out.push(`  ${line}`);
    paragraph = [];
  };
  for (const line of lines) {
    if (line === "") {
      flush();
      out.push("");
    } else if (line.startsWith("  ")) {
      flush();
      out.push(`  ${line}`);
    } else paragraph.push(line);
  }
  flush();
  return out;
}

/** The usage line of a command, for an error message: `june run <file> ...`. */
export function usageLine(path: string, help: CommandHelp | undefined): string {
  return help?.usage[0] ?? `june ${path}`;
}
