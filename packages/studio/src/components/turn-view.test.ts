import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import type { ChatTraceRow } from "june-design-system";
import { describe, expect, it } from "vitest";
import { TurnView } from "./turn-view";

/** A step and its model call as a suspended turn leaves them: started, never ended. */
const rows: ChatTraceRow[] = [
  {
    kind: "step",
    id: "step-deploy",
    stepId: "deploy",
    title: "Running deploy",
    status: "running",
    startedAt: 1_700_000_000_000,
    children: [
      { kind: "model", id: "model-1", title: "Calling gpt-5-mini", status: "running", startedAt: 1_700_000_000_100, children: [], model: { provider: "openai", modelId: "gpt-5-mini" } },
    ],
  },
];

function html(status: "running" | "suspended" | "interrupted"): string {
  return renderToStaticMarkup(createElement(TurnView, { turn: { input: "Deploy the docs", steers: [], text: "", status }, rows }));
}

function badges(status: "running" | "suspended" | "interrupted"): string[] {
  return [...html(status).matchAll(/<span class="jt-badge[^"]*"[^>]*><span class="jt-badge__dot"[^>]*><\/span>([^<]+)<\/span>/g)].map((match) => match[1]!);
}

describe("TurnView's trace", () => {
  it("a suspended or interrupted turn's rows never read Running; a running turn's do", () => {
    expect(badges("running")).toEqual(["Running", "Running"]);
    expect(badges("suspended")).toEqual(["Suspended", "Suspended"]);
    expect(badges("interrupted")).toEqual(["Interrupted", "Interrupted"]);
    expect(html("running")).toMatch(/Running deploy.*Calling gpt-5-mini/);
    expect(html("suspended")).toMatch(/deploy suspended.*gpt-5-mini suspended/);
    expect(html("suspended")).not.toMatch(/Running|Calling/);
  });
});
