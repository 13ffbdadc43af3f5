import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { sessionCostLabel } from "./session-cost";
import { SessionItem } from "./session-item";

describe("the open session's cost in the sidebar", () => {
  it("shows the server's figure: its USD, unknown when the server says so, nothing when nothing was spent", () => {
    expect(sessionCostLabel({ tokens: 3000, usd: 0.0009 })).toBe("$0.0009");
    expect(sessionCostLabel({ tokens: 3000 })).toBe("cost unknown");
    expect(sessionCostLabel({ tokens: 0, usd: 0 })).toBeUndefined();
    expect(sessionCostLabel(undefined)).toBeUndefined();
  });

  it("the selected session's item shows it after its turns and age", () => {
    const session = { id: "s1", title: "Deploy", turnCount: 2, createdAt: new Date().toISOString(), updatedAt: new Date().toISOString() };
    const props = { session, selected: true, cost: "$0.0009", onSelect() {}, onDelete() {}, onRename: async () => {} };
    expect(renderToStaticMarkup(createElement(SessionItem, props))).toMatch(/2 turns · [^<]+ · \$0\.0009<\/span>/);
  });
});
