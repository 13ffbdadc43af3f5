import { describe, expect, it } from "vitest";
import { memoryStore } from "../stores/memory-store.js";
import { findSessionById, sessionIdProblem } from "./session-id.js";

describe("findSessionById", () => {
  it("finds a session by its id or a prefix only it has, and says when a prefix is shared or matches nothing", async () => {
    const store = memoryStore();
    await store.createSession({ id: "3f2a11" });
    await store.createSession({ id: "3f2b22" });
    expect(await findSessionById(store, "3f2a11")).toMatchObject({ id: "3f2a11" });
    expect(await findSessionById(store, "3f2a")).toMatchObject({ id: "3f2a11" });
    expect(await findSessionById(store, "3f2b…")).toMatchObject({ id: "3f2b22" });
    const shared = await findSessionById(store, "3f2");
    expect(shared).toEqual({ ambiguous: 2 });
    expect(sessionIdProblem("3f2", shared as { ambiguous: number }, ".june/chat")).toBe(
      '"3f2" is the start of 2 sessions\' ids in .june/chat: type more of the id',
    );
    expect(await findSessionById(store, "9")).toBe("missing");
    expect(await findSessionById(store, "…")).toBe("missing");
    expect(await findSessionById(store, "../x")).toBe("missing");
  });
});
