import { describe, expect, it } from "vitest";
import { storeConformanceCases } from "../testing/store-conformance.js";
import { memoryStore } from "./memory-store.js";

describe("memoryStore conformance", () => {
  for (const c of storeConformanceCases(() => memoryStore())) it(c.name, c.run);
});

describe("memoryStore", () => {
  it("hands out frozen entries, so a reader cannot change the journal", async () => {
    const store = memoryStore();
    await store.createSession({ id: "s" });
    const [entry] = await store.read("s");
    expect(Object.isFrozen(entry)).toBe(true);
    expect(() => {
      (entry as { id: string }).id = "x";
    }).toThrow(TypeError);
  });

  it("keeps sessions apart between stores", async () => {
    const a = memoryStore();
    const b = memoryStore();
    await a.createSession({ id: "s" });
    expect(await b.getSession("s")).toBeUndefined();
  });
});
