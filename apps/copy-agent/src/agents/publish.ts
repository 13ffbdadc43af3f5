import { appendFile, mkdir, readFile } from "node:fs/promises";
import { dirname } from "node:path";
import { jsonSchema, tool } from "ai";

/** A published piece of copy, one line of `published.jsonl`. */
export interface Publication {
  /** The slug it is published under: `/published/<slug>`. */
  slug: string;
  title: string;
  text: string;
  /** The id of the agent whose turn published it. */
  agent: string;
  at: string;
}

/** Where publications go: a JSONL file, appended to, one publication a line. */
export interface PublicationLog {
  readonly path: string;
  append(publication: Publication): Promise<void>;
  list(): Promise<Publication[]>;
}

export function publicationLog(path: string): PublicationLog {
  return {
    path,
    async append(publication) {
      await mkdir(dirname(path), { recursive: true });
      await appendFile(path, `${JSON.stringify(publication)}\n`);
    },
    async list() {
      let text: string;
      try {
        text = await readFile(path, "utf8");
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
        throw error;
      }
      return text
        .split("\n")
        .filter((line) => line.trim() !== "")
        .map((line) => JSON.parse(line) as Publication);
    },
  };
}

/** "Ship June faster!" → "ship-june-faster". */
export function slugOf(title: string): string {
  const slug = title
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60);
  return slug || "untitled";
}

/**
 * The `publish` tool: it needs approval, so it runs only after the user approves the call, and once per
 * approval (the runtime's guarantee). Denied, it never runs.
 */
export function publishTool(options: { agent: string; log: PublicationLog }) {
  return tool({
    description: "Publish a piece of copy on the site. Needs the user's approval.",
    inputSchema: jsonSchema<{ title: string; text: string }>({
      type: "object",
      properties: {
        title: { type: "string", description: "A short title" },
        text: { type: "string", description: "The exact copy to publish" },
      },
      required: ["title", "text"],
    }),
    needsApproval: true,
    execute: async ({ title, text }) => {
      const publication: Publication = { slug: slugOf(title), title, text, agent: options.agent, at: new Date().toISOString() };
      await options.log.append(publication);
      return `Published "${title}" at /published/${publication.slug}`;
    },
  });
}
