import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { SessionInfo } from "../api/types";
import { Sidebar } from "./sidebar";
import { cutTitles, SHOWN_CHARS } from "./title-cut";

const ALIKE = [
  "Deploy the docs to staging for the web team",
  "Deploy the docs to staging for the mobile team",
  "Deploy the docs to staging",
  "Deploy the docs to staging",
  "Summarize the release notes",
];

describe("session titles that start alike", () => {
  it("are cut in the middle, each keeping the end that differs; the rest are left whole", () => {
    const cuts = cutTitles(ALIKE);
    expect(cuts).toEqual([
      { head: "Deploy the docs to staging for the ", tail: "web team" },
      { head: "Deploy the docs to staging for the ", tail: "mobile team" },
      // The start of a longer title: its last word shows (and, with its twin, when each started).
      { head: "Deploy the docs to ", tail: "staging" },
      { head: "Deploy the docs to ", tail: "staging" },
      { head: "Summarize the release notes" },
    ]);
    // Nothing is lost: the two parts are the whole title.
    expect(cuts.map((cut) => cut.head + (cut.tail ?? ""))).toEqual(ALIKE);
    // Titles that differ within what the sidebar shows are not cut in the middle.
    expect(cutTitles(["Deploy the web docs to staging now", "Deploy the app docs to staging now"])).toEqual([
      { head: "Deploy the web docs to staging now" },
      { head: "Deploy the app docs to staging now" },
    ]);
    expect(SHOWN_CHARS).toBeLessThan("Deploy the docs to staging".length);
  });

  it("the sidebar shows each differing end in its own part of the title, which reads whole", () => {
    const sessions: SessionInfo[] = ALIKE.map((title, index) => ({
      id: `s${index}`,
      title,
      turnCount: 1,
      createdAt: new Date(Date.UTC(2026, 11, 1, 9, 0, index)).toISOString(),
      updatedAt: new Date(Date.UTC(2026, 11, 1, 9, 0, index)).toISOString(),
    }) as SessionInfo);
    const html = renderToStaticMarkup(
      createElement(Sidebar, { sessions, loaded: true, selectedId: null, onSelect() {}, onNew() {}, onDelete() {}, onRename: async () => {} }),
    );
    const tails = [...html.matchAll(/<span class="session__title-tail">([^<]*)<\/span>/g)].map((match) => match[1]);
    expect(tails).toEqual(["web team", "mobile team", "staging", "staging"]);
    expect(html).toContain('title="Deploy the docs to staging for the mobile team"');
  });
});
