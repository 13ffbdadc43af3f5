import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { CommandDef } from "citty";
import { describe, expect, it } from "vitest";
import { createFakeIO } from "./__fixtures__/fake-io.js";
import { commandHelps, helpOf, resolved } from "./help.js";
import { juneCommand } from "./main.js";

const commandsDir = fileURLToPath(new URL("./commands/", import.meta.url));

/** Every command of the tree, by its path, with its own `meta`. */
async function commands(root: CommandDef, path: string[] = []): Promise<{ path: string; command: CommandDef }[]> {
  const out = [{ path: path.length > 0 ? path.join(" ") : "june", command: root }];
  for (const [name, sub] of Object.entries((await resolved(root.subCommands)) ?? {})) {
    out.push(...(await commands((await resolved(sub)) as CommandDef, [...path, name])));
  }
  return out;
}

describe("a command's help lives with the command", () => {
  it("every command has its help, and its meta's description is that help's summary", async () => {
    const all = await commands(juneCommand(createFakeIO()));
    expect(all.map(({ path }) => path)).toEqual(
      expect.arrayContaining(["june", "run", "chat", "ask", "resume", "studio", "sessions", "sessions list", "sessions rm", "dataset", "eval"]),
    );
    for (const { path, command } of all) {
      const help = await helpOf(command);
      expect(help, path).toBeDefined();
      const meta = await resolved(command.meta);
      expect(meta?.description, path).toBe(help!.summary);
      expect(meta?.name, path).toBe(path === "june" ? "june" : path.split(" ").at(-1));
      expect(help!.usage[0], path).toMatch(path === "june" ? /^june </ : new RegExp(`^june ${path}\\b`));
    }
    // commandHelps walks the same tree (the help examples test runs every example it lists).
    expect((await commandHelps(juneCommand(createFakeIO()))).map(([path]) => path)).toEqual(all.map(({ path }) => path));
  });

  it("help.ts renders and holds no command's text; an action imports only types from its command's file", () => {
    const help = readFileSync(fileURLToPath(new URL("./help.ts", import.meta.url)), "utf8");
    expect(help).not.toMatch(/examples: \[\s*\[/);
    expect(help).not.toMatch(/summary: "/);
    for (const file of readdirSync(commandsDir).filter((name) => name.endsWith("-action.ts"))) {
      const text = readFileSync(`${commandsDir}${file}`, "utf8");
      const own = `./${file.replace("-action.ts", ".js")}`;
      for (const [line] of text.matchAll(new RegExp(`^import .* from "${own.replace(".", "\\.")}";$`, "gm"))) {
        expect(line, file).toMatch(/^import type /);
      }
    }
  });
});
