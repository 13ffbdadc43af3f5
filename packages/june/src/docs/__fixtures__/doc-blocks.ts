/**
 * What the docs test reads out of a Markdown page: its TypeScript code blocks (with what the line before
 * each says to do with it), its links, and the anchors its headings make.
 */

/** `run`: type-checked and run; `check`: type-checked only (`<!-- no-run -->`); `skip`: neither (`<!-- no-check -->`). */
export type BlockMode = "run" | "check" | "skip";

export interface DocBlock {
  /** The page, relative to the repository root. */
  page: string;
  /** The 1-based line of the opening fence. */
  line: number;
  lang: "ts" | "tsx";
  mode: BlockMode;
  code: string;
}

const FENCE = /^(\s*)(`{3,}|~{3,})\s*([\w-]*)/;
const LANGS: Record<string, "ts" | "tsx"> = { ts: "ts", typescript: "ts", tsx: "tsx" };

/** A fenced block of any language: its info string's first word (lower case, `""` for none) and what the line before says. */
export interface FencedBlock {
  /** The 1-based line of the opening fence. */
  line: number;
  lang: string;
  /** The last non-blank line before the fence, trimmed (a `<!-- no-run -->` marker, or prose). */
  before: string;
  code: string;
}

/** Every fenced block of a page, in order (`sh`, `json` and the rest as well as TypeScript). */
export function fencedBlocks(markdown: string): FencedBlock[] {
  const lines = markdown.split("\n");
  const blocks: FencedBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]!);
    if (!open) continue;
    const fence = open[2]!;
    const end = lines.findIndex((line, j) => j > i && line.trim().startsWith(fence) && line.trim().replace(/[`~]/g, "") === "");
    const close = end === -1 ? lines.length : end;
    let before = i - 1;
    while (before >= 0 && lines[before]!.trim() === "") before--;
    blocks.push({
      line: i + 1,
      lang: open[3]!.toLowerCase(),
      before: before >= 0 ? lines[before]!.trim() : "",
      code: lines.slice(i + 1, close).join("\n") + "\n",
    });
    i = close;
  }
  return blocks;
}

/** Every ```ts / ```tsx block of a page, in order. */
export function extractBlocks(page: string, markdown: string): DocBlock[] {
  return fencedBlocks(markdown).flatMap(({ line, lang: name, before, code }) => {
    const lang = LANGS[name];
    if (!lang) return [];
    const mode: BlockMode = before === "<!-- no-check -->" ? "skip" : before === "<!-- no-run -->" ? "check" : "run";
    return [{ page, line, lang, mode, code }];
  });
}

export interface DocLink {
  line: number;
  target: string;
}

/** The page's Markdown links and images (`[text](target)`), outside code blocks and code spans. */
export function markdownLinks(markdown: string): DocLink[] {
  const links: DocLink[] = [];
  let fence: string | undefined;
  markdown.split("\n").forEach((text, index) => {
    const open = FENCE.exec(text);
    if (open) {
      if (fence === undefined) fence = open[2];
      else if (text.trim().startsWith(fence)) fence = undefined;
      return;
    }
    if (fence !== undefined) return;
    const prose = text.replace(/`[^`]*`/g, "");
    for (const match of prose.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      links.push({ line: index + 1, target: match[1]! });
    }
  });
  return links;
}

/** The anchors a page's headings make, as GitHub makes them: lower case, punctuation dropped, spaces to `-`, repeats numbered. */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fence: string | undefined;
  for (const text of markdown.split("\n")) {
    const open = FENCE.exec(text);
    if (open) {
      if (fence === undefined) fence = open[2];
      else if (text.trim().startsWith(fence)) fence = undefined;
      continue;
    }
    if (fence !== undefined) continue;
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(text);
    if (!heading) continue;
    const slug = heading[1]!
      .replace(/<[^>]+>/g, "")
      .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}
