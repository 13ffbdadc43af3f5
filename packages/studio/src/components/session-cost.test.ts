import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { sessionCostLabel } from "./session-cost";
import { SessionItem } from "./session-item";

const turn = (usd: number | undefined, inputTokens = 1000) => ({ metadata: { responder: { kind: "model" }, usage: { inputTokens }, ...(usd !== undefined ? { cost: { usd } } : {}) } }) as never;

describe("the open session's cost in the sidebar", () => {
  it("sums its turns' costs; unknown when a turn with usage has no price; nothing when no turn used tokens", () => {
    expect(sessionCostLabel([turn(0.0003), turn(0.0006)])).toBe("$0.0009");
    expect(sessionCostLabel([turn(0.0003), turn(undefined)])).toBe("cost unknown");
    expect(sessionCostLabel([turn(undefined, 0), { metadata: undefined } as never])).toBeUndefined();
    expect(sessionCostLabel([])).toBeUndefined();
  });

  it("the selected session's item shows it after its turns and age", () => {
    const session = { id: "s1", title: "Deploy", turnCount: 2, createdAt: new Date().toISOString(), updatedAt: new Date().toISOString() };
    const props = { session, selected: true, cost: "$0.0009", onSelect() {}, onDelete() {}, onRename: async () => {} };
    expect(renderToStaticMarkup(createElement(SessionItem, props))).toMatch(/2 turns · [^<]+ · \$0\.0009<\/span>/);
  });
});
