import { closestName } from "./suggest.js";

/** A command typed at `june chat`'s prompt: handled by the CLI, never sent to the model. */
export type ReplCommand =
  | { type: "help" }
  | { type: "new" }
  | { type: "sessions" }
  | { type: "open"; id: string }
  | { type: "session" }
  | { type: "attach"; path: string }
  | { type: "exit" }
  | { type: "unknown"; name: string; suggestion?: string }
  | { type: "bad"; message: string };

/** One line typed at the prompt: nothing, an input for the model, or a command. */
export type ReplLine = { kind: "empty" } | { kind: "input"; text: string } | { kind: "command"; command: ReplCommand };

/** The commands `june chat` knows, for `/help` and `june chat --help`. */
export const REPL_COMMANDS: readonly { name: string; usage: string; description: string; aliases?: string[] }[] = [
  { name: "/help", usage: "/help", description: "List these commands" },
  { name: "/new", usage: "/new", description: "Start a new session (made when its first turn starts)" },
  { name: "/sessions", usage: "/sessions", description: "List the store's recent sessions" },
  { name: "/open", usage: "/open <id>", description: "Continue another session (an id from /sessions; a prefix will do)" },
  { name: "/session", usage: "/session", description: "Show the current session's id" },
  { name: "/attach", usage: "/attach <path>", description: "Send a file (an image, a PDF, a text file) with your next message" },
  { name: "/exit", usage: "/exit", description: "Quit (also /quit, Ctrl-D)", aliases: ["/quit"] },
];

const NAMES = REPL_COMMANDS.flatMap((command) => [command.name, ...(command.aliases ?? [])]);

/**
 * Reads one line typed at the prompt. A line starting with `/` is a command (an unknown one comes back as
 * `unknown`, with the closest known name); `//` escapes a slash, so `//etc` sends `/etc` to the model.
 */
export function parseReplLine(line: string): ReplLine {
  const text = line.trim();
  if (text === "") return { kind: "empty" };
  if (text.startsWith("//")) return { kind: "input", text: text.slice(1) };
  if (!text.startsWith("/")) return { kind: "input", text };
  const [name = "", ...rest] = text.split(/\s+/);
  const word = name.toLowerCase();
  const arg = rest.join(" ");
  switch (word) {
    case "/help":
    case "/?":
      return { kind: "command", command: { type: "help" } };
    case "/new":
      return { kind: "command", command: { type: "new" } };
    case "/sessions":
      return { kind: "command", command: { type: "sessions" } };
    case "/session":
      return { kind: "command", command: { type: "session" } };
    case "/open":
      return arg
        ? { kind: "command", command: { type: "open", id: arg } }
        : { kind: "command", command: { type: "bad", message: "/open needs a session id: /open <id> (see /sessions)" } };
    case "/attach":
      return arg
        ? { kind: "command", command: { type: "attach", path: arg.replace(/^(["'])(.+)\1$/, "$2") } }
        : { kind: "command", command: { type: "bad", message: "/attach needs a file: /attach <path>" } };
    case "/exit":
    case "/quit":
      return { kind: "command", command: { type: "exit" } };
    default: {
      const suggestion = closestName(word, NAMES);
      return { kind: "command", command: { type: "unknown", name, ...(suggestion ? { suggestion } : {}) } };
    }
  }
}

/** `/help`'s text: one line per command. */
export function renderReplHelp(): string {
  const width = Math.max(...REPL_COMMANDS.map((command) => command.usage.length));
  return [
    ...REPL_COMMANDS.map((command) => `  ${command.usage.padEnd(width)}  ${command.description}`),
    "  Anything else is sent to the chat; start a line with // to send one that begins with /.",
  ].join("\n");
}
