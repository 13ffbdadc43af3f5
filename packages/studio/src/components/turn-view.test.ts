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

describe("TurnView's footer", () => {
  const view = ({ metadata, ...turn }: Record<string, unknown>) =>
    renderToStaticMarkup(createElement(TurnView, { turn: { input: "Hi", steers: [], text: "Hello", ...turn } as never, rows: [], metadata: metadata as never }));

  it("a completed turn says its model, tokens and cost; no cost when its model's price is not known", () => {
    const model = { provider: "openai.responses", modelId: "gpt-4o-mini" };
    expect(view({ status: "completed", metadata: { responder: { kind: "model" }, model, usage: { totalTokens: 1500 }, cost: { usd: 0.00045 } } })).toContain(
      "gpt-4o-mini · 1,500 tokens · $0.00045",
    );
    const unknown = view({ status: "completed", metadata: { responder: { kind: "model" }, model, usage: { totalTokens: 1500 } } });
    expect(unknown).toContain("gpt-4o-mini · 1,500 tokens</p>");
    expect(unknown).not.toContain("$");
  });

  it("a team's turn says which agent answered, and the handoffs that led to it", () => {
    const responder = { kind: "agent" };
    expect(view({ status: "completed", metadata: { responder, agent: { id: "editor" }, handoff: { from: "front", to: "editor" }, usage: { totalTokens: 12 } } })).toContain("front → editor · 12 tokens");
    const twice = [{ from: "front", to: "editor" }, { from: "editor", to: "translator" }];
    expect(view({ status: "completed", metadata: { responder, agent: { id: "translator" }, handoff: twice } })).toContain("front → editor → translator</p>");
    expect(view({ status: "completed", metadata: { responder, agent: { id: "front" }, handoff: { from: "front", to: "editor" } } })).toContain("front, handed off to editor</p>");
    expect(view({ status: "completed", metadata: { responder, agent: { id: "editor" } } })).toContain("editor</p>");
  });

  it("a turn a budget stopped says so in the budget's words", () => {
    const message = "The session budget is spent ($0.0009 of $0.0008): stopped before the next model call";
    expect(view({ status: "failed", error: { name: "BudgetExceededError", message } })).toContain(`<p class="turn__error-text">The session budget is spent ($0.0009 of $0.0008): stopped before the next model call</p>`);
  });
});

describe("TurnView's reasoning and sources", () => {
  const turn = {
    input: "What is the answer?",
    steers: [],
    text: "42.",
    status: "completed" as const,
    reasoning: "The guide has it.",
    reasoningMs: 3_200,
    sources: [
      { sourceType: "url" as const, id: "s1", url: "https://example.com/guide", title: "The guide" },
      { sourceType: "url" as const, id: "s2", url: "javascript:alert(1)" },
    ],
  };

  it("shows the reasoning collapsed under how long it took, and the sources as links (http and https only)", () => {
    const out = renderToStaticMarkup(createElement(TurnView, { turn, rows: [] }));
    expect(out).toContain('<details class="turn__reasoning"><summary>Thought for 3 s</summary><p class="reasoning">The guide has it.</p></details>');
    expect(out).toContain('<a href="https://example.com/guide" target="_blank" rel="noreferrer noopener">The guide</a>');
    expect(out).not.toContain('href="javascript:');
    expect(out.indexOf("turn__reasoning")).toBeLessThan(out.indexOf("42."));
    expect(out.indexOf("42.")).toBeLessThan(out.indexOf("turn__sources"));
  });

  it("a blocked turn shows neither", () => {
    const out = renderToStaticMarkup(createElement(TurnView, { turn: { ...turn, status: "blocked" }, rows: [] }));
    expect(out).not.toContain("turn__reasoning");
    expect(out).not.toContain("turn__sources");
  });
});
