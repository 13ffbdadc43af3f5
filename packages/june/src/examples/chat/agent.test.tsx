import { scriptedModel } from "june/testing";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// The example is run as written; only the model behind `openai(...)` is swapped for a scripted one.
const models = vi.hoisted(() => ({ created: [] as string[] }));
vi.mock("june/sdk/openai", () => ({
  openai: (modelId: string) => {
    models.created.push(modelId);
    return scriptedModel(
      [
        "Draft: TypeScript adds static types to JavaScript, which, like, helps.",
        { text: ["TypeScript ", "adds static ", "types to ", "JavaScript."], delay: 5 },
      ],
      { provider: "openai.responses", modelId },
    );
  },
}));

describe("examples/chat/agent", () => {
  // The example keeps its sessions in `.june/chat` under the working directory: use a throwaway one.
  const home = process.cwd();
  const dir = mkdtempSync(join(tmpdir(), "june-agent-example-"));
  beforeAll(() => process.chdir(dir));
  afterAll(() => {
    process.chdir(home);
    rmSync(dir, { recursive: true, force: true });
  });

  it("drafts, then streams the review as the reply", async () => {
    const { default: chat } = await import("./agent.js");
    expect(chat.responder).toMatchObject({ kind: "agent", id: "draft-and-review", version: "1" });
    const session = await chat.createSession();
    const turn = session.send("What is TypeScript?");
    const deltas: string[] = [];
    for await (const event of turn) if (event.type === "text-delta") deltas.push(event.text);
    const result = await turn.result;
    expect(result.text).toBe("TypeScript adds static types to JavaScript.");
    expect(deltas.join("")).toBe(result.text);
    expect(deltas.length).toBeGreaterThan(1);
    expect(result.run?.steps.draft).toMatch(/^Draft:/);
    expect(result.metadata).toMatchObject({
      responder: { kind: "agent", id: "draft-and-review", version: "1" },
      model: { provider: "openai.responses", modelId: "gpt-5-mini" },
    });
    expect(models.created).toEqual(["gpt-5-mini"]);
  });
});
