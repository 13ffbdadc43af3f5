import { describe, expect, it } from "vitest";
import { extractBlocks, headingAnchors, markdownLinks } from "./__fixtures__/doc-blocks.js";

const page = [
  "# Title",
  "",
  "```ts",
  'const a = 1;',
  "```",
  "",
  "<!-- no-run -->",
  "",
  "```tsx",
  "const b = <x />;",
  "```",
  "<!-- no-check -->",
  "```typescript",
  "fragment(",
  "```",
  "```sh",
  "npm test",
  "```",
  "````md",
  "```ts",
  "inside a longer fence",
  "```",
  "````",
  "See [the chat](chat.md#turns-and-steer), `[not](a-link.md)`, ![img](x.png) and [web](https://example.com).",
  "## Turns and steer",
  "## What's stored?",
  "## Turns and steer",
].join("\n");

describe("the docs test's reader", () => {
  it("finds ts and tsx blocks with the mode the line before says, skipping other languages and nested fences", () => {
    expect(extractBlocks("docs/x.md", page)).toEqual([
      { page: "docs/x.md", line: 3, lang: "ts", mode: "run", code: "const a = 1;\n" },
      { page: "docs/x.md", line: 9, lang: "tsx", mode: "check", code: "const b = <x />;\n" },
      { page: "docs/x.md", line: 13, lang: "ts", mode: "skip", code: "fragment(\n" },
    ]);
  });

  it("finds links outside code, and the anchors headings make", () => {
    expect(markdownLinks(page).map((link) => link.target)).toEqual(["chat.md#turns-and-steer", "x.png", "https://example.com"]);
    expect([...headingAnchors(page)]).toEqual(["title", "turns-and-steer", "whats-stored", "turns-and-steer-1"]);
  });
});
