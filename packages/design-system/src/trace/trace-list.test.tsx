import { cleanup, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { canceledStep, doneStep, everyRow, failedStep, runningStep, waitingStep } from "../__fixtures__/rows.js";
import { TraceList } from "./trace-list.js";
import type { ChatTraceRow } from "./types.js";

afterEach(cleanup);

function rowById(container: HTMLElement, id: string): HTMLElement {
  const row = container.querySelector<HTMLElement>(`[data-row-id="${id}"]`);
  if (!row) throw new Error(`no row ${id}`);
  return row;
}

describe("TraceList", () => {
  it("draws nothing for no rows", () => {
    const { container } = render(<TraceList rows={[]} />);
    expect(container.innerHTML).toBe("");
  });

  it("draws every row, nested as the workflow nests them, with its kind and status", () => {
    const { container } = render(<TraceList rows={everyRow} />);
    const ids: string[] = [];
    const visit = (row: ChatTraceRow) => {
      ids.push(row.id);
      row.children.forEach(visit);
    };
    everyRow.forEach(visit);
    for (const id of ids) expect(rowById(container, id)).toBeTruthy();

    const step = rowById(container, "step-ship");
    expect(step.dataset.kind).toBe("step");
    expect(step.dataset.status).toBe("running");
    // The tool row sits in the step's nested list, and the approval row in the tool's.
    const tool = within(step).getByText("deploy needs approval").closest("li");
    expect(tool?.dataset.rowId).toBe("tool-deploy");
    expect(tool?.querySelector('[data-row-id="approval-deploy"]')).toBeTruthy();
    expect(container.querySelectorAll(":scope > ul > li")).toHaveLength(everyRow.length);
  });

  it("names each status on its badge, and a canceled row as canceled", () => {
    const { container } = render(<TraceList rows={[runningStep, waitingStep, doneStep, failedStep, canceledStep]} />);
    const badge = (id: string) => rowById(container, id).querySelector(":scope > .jt-row__line > .jt-badge")?.textContent;
    expect(badge("step-research")).toBe("Running");
    expect(badge("step-draft")).toBe("Done");
    expect(badge("step-fetch")).toBe("Failed");
    expect(badge("step-review")).toBe("Canceled");
    expect(badge("approval-deploy")).toBe("Waiting");
  });

  it("a turn that halted leaves no row reading Running: its running rows, nested ones too, say Suspended or Interrupted", () => {
    for (const [halted, label] of [["suspended", "Suspended"], ["interrupted", "Interrupted"]] as const) {
      const { container } = render(<TraceList rows={[runningStep, waitingStep, doneStep]} halted={halted} />);
      const badges = [...container.querySelectorAll<HTMLElement>(".jt-badge")];
      expect(badges.map((badge) => badge.textContent)).not.toContain("Running");
      expect(rowById(container, "step-research").querySelector(":scope > .jt-row__line > .jt-badge")!.textContent).toBe(label);
      // Its title names what became of it, not an action under way.
      expect(rowById(container, "step-research").querySelector(":scope > .jt-row__line > .jt-row__title")!.textContent).toBe(`research ${halted}`);
      expect(container.textContent).not.toMatch(/Running|Calling/);
      // Its nested rows too; a wait for a decision still reads as one, and finished rows as they were.
      expect(container.querySelectorAll(`.jt-badge[data-state="${halted}"]`).length).toBeGreaterThan(1);
      expect(rowById(container, "approval-deploy").querySelector(".jt-badge")!.textContent).toBe("Waiting");
      expect(rowById(container, "step-draft").querySelector(":scope > .jt-row__line > .jt-badge")!.textContent).toBe("Done");
      // Nothing ticks: a halted row's time is not running.
      expect(container.querySelector('.jt-row__duration[data-running="true"]')).toBeNull();
      cleanup();
    }
  });

  it("says a wait once: on the approval row, not again on the tool row above it", () => {
    const { container } = render(<TraceList rows={[waitingStep]} />);
    const badges = (id: string) => [...rowById(container, id).querySelectorAll(":scope > .jt-row__line > .jt-badge")].map((badge) => badge.textContent);
    expect(badges("tool-deploy")).toEqual([]);
    expect(badges("approval-deploy")).toEqual(["Waiting"]);
    expect(container.textContent?.match(/Waiting/g)).toHaveLength(1);
    // A tool waiting with no approval row under it (its request not among the turn's) keeps its badge.
    const tool = (waitingStep.children[1] as Extract<ChatTraceRow, { kind: "tool" }>);
    cleanup();
    const alone = render(<TraceList rows={[{ ...tool, children: [] }]} />);
    expect(rowById(alone.container, "tool-deploy").querySelector(":scope > .jt-row__line > .jt-badge")?.textContent).toBe("Waiting");
  });

  it("shows a failure's error but not the cancel every row of a canceled run shares", () => {
    const { container } = render(<TraceList rows={[failedStep, canceledStep]} />);
    expect(within(rowById(container, "step-fetch")).getAllByText("FetchError: connect ECONNREFUSED 127.0.0.1:9").length).toBeGreaterThan(0);
    expect(within(rowById(container, "model-4")).getByText("APICallError: rate limited")).toBeTruthy();
    expect(container.textContent).not.toContain("AbortError");
  });

  it("shows a done step's tokens and what it wrote", () => {
    const { container } = render(<TraceList rows={[doneStep]} />);
    const step = rowById(container, "step-draft");
    expect(step.querySelector(":scope > .jt-row__line > .jt-row__meta")?.textContent).toBe(`${(1242).toLocaleString()} tokens`);
    expect(within(step).getByText("What it wrote")).toBeTruthy();
    expect(within(step).getByText("Three headlines: Ship faster. Ship calmer. Ship June.")).toBeTruthy();
  });

  it("shows a tool's input, output and a denial's reason", () => {
    const { container } = render(<TraceList rows={[doneStep]} />);
    const published = rowById(container, "tool-approved");
    expect(within(published).getByText('{"draft":"Ship June"}')).toBeTruthy();
    expect(within(published).getByText('"published at /blog/ship-june"')).toBeTruthy();
    const denied = rowById(container, "tool-denied");
    // A denial is its own state: its badge says Denied, never Done, and the reason is under it.
    const badge = denied.querySelector(":scope > .jt-row__line > .jt-badge") as HTMLElement;
    expect([badge.textContent, badge.dataset.state]).toEqual(["Denied", "denied"]);
    expect(denied.dataset.denied).toBe("true");
    expect(within(denied).getByText("Reason")).toBeTruthy();
    expect(within(denied).getByText("Only non-prod deploys from chat")).toBeTruthy();
    const approvedBadge = published.querySelector(":scope > .jt-row__line > .jt-badge") as HTMLElement;
    expect(approvedBadge.textContent).toBe("Done");
  });

  it("shows how long a finished row took, and opens a long value to the whole of it, laid out", () => {
    const input = JSON.stringify({ project: "docs", env: "staging", files: Array.from({ length: 12 }, (_, i) => `page-${i}.md`) });
    const tool: ChatTraceRow = {
      kind: "tool",
      id: "tool-long",
      title: "deploy ran",
      status: "done",
      children: [],
      toolName: "deploy",
      toolCallId: "c1",
      input,
      startedAt: 1_000,
      endedAt: 2_250,
    };
    const { container } = render(<TraceList rows={[tool]} />);
    const row = rowById(container, "tool-long");
    expect(row.querySelector(".jt-row__duration")?.textContent).toBe("1.3 s");
    const details = row.querySelector("details.jt-more") as HTMLDetailsElement;
    expect(details.open).toBe(false);
    expect(details.querySelector(".jt-more__preview")?.textContent).toBe(input);
    expect(details.querySelector(".jt-more__body")?.textContent).toBe(JSON.stringify(JSON.parse(input), null, 2));
  });

  it("keeps a row's element when the next snapshot replaces the rows", () => {
    const { container, rerender } = render(<TraceList rows={[runningStep]} />);
    const before = rowById(container, "step-research");
    const next: ChatTraceRow = { ...runningStep, title: "research finished", status: "done", children: [] };
    rerender(<TraceList rows={[next]} />);
    const after = rowById(container, "step-research");
    expect(after).toBe(before);
    expect(after.dataset.status).toBe("done");
    expect(screen.getByText("research finished")).toBeTruthy();
  });

  it("draws a row kind newer than these components by its title", () => {
    const future = { kind: "checkpoint", id: "future-1", title: "Saved a checkpoint", status: "done", children: [] } as unknown as ChatTraceRow;
    const { container } = render(<TraceList rows={[future, waitingStep]} />);
    expect(rowById(container, "future-1").dataset.kind).toBe("checkpoint");
    expect(screen.getByText("Saved a checkpoint")).toBeTruthy();
  });
});
