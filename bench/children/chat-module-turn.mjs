/**
 * A chat module's own cost, no CLI: imports the module given (its default export a Chat, as `june ask` takes it),
 * makes a session and prints one turn's text. `ab-startup.mjs` runs it beside `june ask` on the same module.
 * Usage: node chat-module-turn.mjs /path/to/chat.mjs "input"
 */
import { pathToFileURL } from "node:url";

const [file, input = "Hello there"] = process.argv.slice(2);
const { default: chat } = await import(pathToFileURL(file).href);
const session = await chat.createSession();
for await (const event of session.send(input)) {
  if (event.type === "text-delta") process.stdout.write(event.text);
}
process.stdout.write("\n");
