import type { ArgsDef } from "citty";
import type { Colors } from "./colors.js";
import { PROVIDER_ENV, MODEL_PROVIDERS } from "./models.js";
import { REPL_COMMANDS } from "./repl-commands.js";

/**
 * Each command's `--help`, written for it: what it does, its usage line, its options (from its argument
 * definitions), examples, and only the notes that concern it. `june --help` holds what every command
 * shares (models and their keys, output, exit codes).
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

const MODEL_NOTE =
  "--model PROVIDER:ID (or JUNE_MODEL): openai, anthropic, google, ollama or openai-compatible; each provider's key and base-URL variables are in june --help.";

const EXIT_LINE = "0 done · 1 the turn or run failed · 2 bad usage or configuration · 130 canceled (Ctrl-C)";

/** The help of every command, by its path (`"june"`, `"chat"`, `"sessions rm"`). */
export const COMMAND_HELP: Record<string, CommandHelp> = {
  june: {
    summary: "Run June workflows and chats from the terminal.",
    usage: ["june <command> [options]"],
    examples: [
      ["june ask examples/offline.tsx \"Deploy the docs to staging\"", "one turn, offline (a scripted model)"],
      ["june chat --model openai:gpt-5-mini", "a chat with a model, no module"],
      ["june run examples/first-workflow.tsx --input \"the bicycle\"", "run a workflow once"],
      ["june sessions list", "the sessions in .june/chat"],
      ["june studio examples/offline.tsx", "June Studio in the browser"],
    ],
    sections: [
      {
        title: "MODELS",
        lines: [
          "--model PROVIDER:ID (or JUNE_MODEL) names a model; keys and base URLs come from the environment:",
          ...providerLines(),
          "With no file, chat, ask and studio talk to that model. With a file, the model reaches the module when",
          "its default export is a function: ({ model }) => Chat | Responder for chat, ask and studio, a component",
          "taking { input, model } for run. A module exporting a Chat, a Responder or an element picks its own.",
        ],
      },
      {
        title: "OUTPUT",
        lines: [
          "stdout carries the reply alone, streamed; stderr carries progress (on a terminal),",
          "approvals, errors and the session id. With no terminal and neither --yes nor --deny, each approval is",
          "denied (\"no one to approve\"). Ctrl-C cancels the running turn; a second quits. NO_COLOR turns colors off.",
        ],
      },
      {
        title: "TELEMETRY",
        lines: [
          "OTEL_EXPORTER_OTLP_ENDPOINT (or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) makes chat, ask, run and studio send",
          "every turn's and run's spans over OTLP/HTTP; OTEL_EXPORTER_OTLP_HEADERS adds headers, OTEL_SERVICE_NAME",
          "names the service (default june).",
        ],
      },
      { title: "EXIT CODES", lines: [EXIT_LINE] },
    ],
  },
  run: {
    summary: "Run a workflow once; the result of the step that finished last goes to stdout.",
    usage: ["june run <file> [--input TEXT] [--model PROVIDER:ID] [--json] [--yes | --deny]"],
    about: [
      "<file> is a .ts, .tsx, .js or .mjs module, loaded as it is (no build step). Its default export is a",
      "workflow element, or a component that takes { input, model }. A string result prints as it is, anything",
      "else as JSON. Tool approvals are asked on stderr.",
      "",
      MODEL_NOTE,
    ],
    examples: [
      ["june run examples/first-workflow.tsx --input \"the bicycle\"", "the README's first workflow, offline"],
      ["june run examples/first-workflow.tsx --input \"solar sails\" --model anthropic:claude-sonnet-4-5", "the component gets { input, model }"],
      ["june run examples/first-workflow.tsx --input \"solar sails\" --json | jq -c 'select(.type == \"run-end\")'", "the events as JSON lines"],
    ],
    sections: [{ title: "EXIT CODES", lines: [EXIT_LINE] }],
  },
  chat: {
    summary: "Chat in the terminal, or answer one turn per line of stdin when it is not a terminal.",
    usage: ["june chat [<file>] [--model PROVIDER:ID] [--session ID] [--store DIR] [--json] [--yes | --deny]"],
    about: [
      "<file> is a chat module: its default export is a Chat, a Responder, or a function ({ model }) => either.",
      "With no file, a chat with --model. Sessions are kept in --store (default .june/chat); a session is",
      "made when its first turn starts, and its id is printed, so --session ID continues it.",
      "",
      MODEL_NOTE,
    ],
    examples: [
      ["june chat examples/offline.tsx", "the offline example (no key needed)"],
      ["june chat --model ollama:llama3.2", "a local Ollama (start it with ollama serve)"],
      ["june chat --model openai:gpt-5-mini --session 3f2a…", "continue a session"],
      ["printf 'Hi\\nAnd then?\\n' | june chat --model google:gemini-2.5-flash", "two turns from a pipe, one reply each"],
    ],
    sections: [
      { title: "IN THE CHAT", lines: [...replyCommandLines(), "Ctrl-C cancels a running turn; Ctrl-C at the prompt or Ctrl-D quits."] },
      { title: "EXIT CODES", lines: [EXIT_LINE] },
    ],
  },
  ask: {
    summary: "Ask once: one turn, the reply alone on stdout, the session id on stderr.",
    usage: ["june ask [<file>] <input...> [--model PROVIDER:ID] [--session ID] [--store DIR] [--json] [--yes | --deny]"],
    about: [
      "The input is the rest of the arguments, joined with spaces; with none, it is read from stdin. The first",
      "argument is the chat module when it ends in .ts, .tsx, .js or .mjs: its default export is a Chat, a",
      "Responder, or a function ({ model }) => either. With no file, a chat with --model.",
      "",
      MODEL_NOTE,
    ],
    examples: [
      ["june ask --model openai:gpt-5-mini \"What is a monorepo?\"", "a model chat, one turn"],
      ["june ask examples/offline.tsx \"Deploy the docs to staging\" --yes", "approve the tool call without asking"],
      ["git diff | june ask --model anthropic:claude-sonnet-4-5 > review.md", "the input from a pipe, the reply to a file"],
      ["june ask --model openai:gpt-5-mini --session 3f2a… \"And then?\"", "a follow-up in the same session"],
    ],
    sections: [{ title: "EXIT CODES", lines: [EXIT_LINE] }],
  },
  resume: {
    summary: "Resume a session's suspended turn: ask for its approvals, then stream the rest of the reply.",
    usage: ["june resume [<file>] <session> [<turn>] [--model PROVIDER:ID] [--store DIR] [--json] [--yes | --deny | --cancel]"],
    about: [
      "A durable turn (agentResponder({ durable })) suspends while it waits on approvals alone; this continues",
      "it: the latest suspended (or interrupted) turn of the session, or <turn>. Each pending request is shown",
      "(tool name and input, credentials redacted) and asked on stderr, or decided by --yes or --deny; then the",
      "rest of the reply streams to stdout as with june ask. Give the chat module the session ran with.",
      "Without a terminal to ask, pass --yes or --deny: nothing is denied for want of someone to ask.",
      "--cancel ends the turn instead, running and deciding nothing (journaled canceled, its checkpoint deleted).",
    ],
    examples: [
      ["june resume examples/offline.tsx 3f2a…", "ask for the latest suspended turn's approvals, then continue it"],
      ["june resume examples/offline.tsx 3f2a… 9c41… --yes", "approve that turn's requests without asking"],
      ["june resume examples/offline.tsx 3f2a… --deny", "deny them; the turn ends without running the tools"],
      ["june resume examples/offline.tsx 3f2a… --cancel", "end the latest suspended turn without running anything"],
    ],
    sections: [
      {
        title: "EXIT CODES",
        lines: [EXIT_LINE, "2 also when the session does not exist or has nothing to resume.", "With --cancel: 0 canceled, 1 a process runs the turn (the session is busy)."],
      },
    ],
  },
  studio: {
    summary: "Serve June Studio, a local web app for one chat, until Ctrl-C.",
    usage: ["june studio [<file>] [--model PROVIDER:ID] [--store DIR] [--port N] [--host 127.0.0.1] [--open]"],
    about: [
      "It listens on 127.0.0.1 and prints a URL with a token; open that URL (a page without the token is",
      "refused). The chat is the one june chat would talk to.",
      "",
      MODEL_NOTE,
    ],
    examples: [
      ["june studio examples/offline.tsx --open", "the offline example, in your browser"],
      ["june studio --model openai:gpt-5-mini --port 4000", "a model chat on a fixed port"],
    ],
  },
  sessions: {
    summary: "List, show, export (redacted) or delete the sessions in a store.",
    usage: ["june sessions list [--store DIR] [--json]", "june sessions show|export|rm <id> [--store DIR]"],
    examples: [
      ["june sessions list", "newest first, with relative times"],
      ["june sessions show 3f2a…", "a session's turns as a transcript"],
      ["june sessions export 3f2a… > session.jsonl", "its journal, credentials redacted"],
      ["june sessions rm 3f2a… --store .june/chat", "delete it"],
    ],
  },
  "sessions list": {
    summary: "List the sessions in a store, newest first.",
    usage: ["june sessions list [--store DIR] [--json]"],
    about: [
      "On a terminal, a table with a header and relative times; otherwise tab-separated columns (id, updated",
      "at as an ISO time, turns, title) with no header, for scripts. --json prints one session per line.",
    ],
    examples: [
      ["june sessions list", "the sessions in .june/chat"],
      ["june sessions list --store ~/notes/.june/chat", "another store"],
      ["june sessions list | cut -f1 | head -3", "the three newest ids"],
    ],
  },
  "sessions show": {
    summary: "Show a session's turns: each input, then its reply.",
    usage: ["june sessions show <id> [--store DIR] [--json]"],
    examples: [
      ["june sessions show 3f2a…", "the transcript"],
      ["june sessions show 3f2a… --json", "one turn per JSON line"],
    ],
  },
  "sessions export": {
    summary: "Print a session's journal as JSON lines, with credentials redacted.",
    usage: ["june sessions export <id> [--store DIR]"],
    examples: [["june sessions export 3f2a… > session.jsonl", "save it"]],
  },
  "sessions rm": {
    summary: "Delete a session and its journal.",
    usage: ["june sessions rm <id> [--store DIR]"],
    examples: [["june sessions rm 3f2a…", "delete it from .june/chat"]],
  },
  dataset: {
    summary: "Print the completed turns of a store's sessions as eval cases, one JSON line each, credentials redacted.",
    usage: ["june dataset [<file>] [--store DIR] [--out FILE] [--filter up|down|all] [--session ID]"],
    examples: [
      ["june dataset --filter up --out cases.jsonl", "the turns that got a thumbs-up"],
      ["june dataset examples/offline.tsx --session 3f2a…", "one session of a module's own store"],
    ],
  },
  eval: {
    summary: "Answer eval cases with a chat's responder and score the replies.",
    usage: ["june eval <file> <cases.jsonl> [--scorer NAME ...] [--concurrency N] [--threshold N] [--min N] [--json] [--out FILE]"],
    about: [
      "Both arguments are required: <file> is the chat module whose responder answers each case, <cases.jsonl>",
      "the cases (what june dataset writes). A `scorers` export of the module adds scorers.",
      "",
      MODEL_NOTE,
    ],
    examples: [
      ["june eval examples/offline.tsx cases.jsonl", "score with exactMatch (cases.jsonl as june dataset writes it)"],
      ["june eval examples/offline.tsx cases.jsonl --scorer includes --min 0.8", "fail (exit 1) below a mean of 0.8"],
      ["june eval examples/offline.tsx cases.jsonl --model openai:gpt-5-mini --json > report.json", "a whole report as JSON"],
    ],
    sections: [
      { title: "EXIT CODES", lines: ["0 done · 1 a scorer's mean missed --min · 2 bad usage, a bad cases file or configuration · 130 canceled"] },
    ],
  },
};

function providerLines(): string[] {
  const example: Record<string, string> = {
    openai: "openai:gpt-5-mini",
    anthropic: "anthropic:claude-sonnet-4-5",
    google: "google:gemini-2.5-flash",
    ollama: "ollama:llama3.2",
    "openai-compatible": "openai-compatible:ID",
  };
  const where: Record<string, string> = {
    ollama: "a local Ollama: OLLAMA_BASE_URL, or OLLAMA_HOST + /v1, or http://127.0.0.1:11434/v1",
    "openai-compatible": "--base-url URL (or OPENAI_COMPATIBLE_BASE_URL); OPENAI_COMPATIBLE_API_KEY if needed",
  };
  return MODEL_PROVIDERS.map((provider) => {
    const env = PROVIDER_ENV[provider];
    const text = where[provider] ?? `${env.key} (base URL: ${env.baseUrl})`;
    return `  ${example[provider]!.padEnd(30)} ${text}`;
  });
}

function replyCommandLines(): string[] {
  const width = Math.max(...REPL_COMMANDS.map((command) => command.usage.length));
  return [
    ...REPL_COMMANDS.map((command) => `  ${command.usage.padEnd(width)}  ${command.description}`),
    "A line starting with // is sent as it is, less one slash (//etc/hosts sends /etc/hosts).",
  ];
}

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

export interface RenderHelpOptions {
  /** `"june"`, `"chat"`, `"sessions rm"`, ... */
  path: string;
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
  const help = COMMAND_HELP[options.path];
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
export function usageLine(path: string): string {
  return COMMAND_HELP[path]?.usage[0] ?? `june ${path}`;
}
