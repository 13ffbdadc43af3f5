import { jsonSchema, tool } from "ai";
import { describe, expect, it } from "vitest";
import { Agent, Step, Tool, start } from "june";
import { scriptedModel } from "june/testing";
import { endsStep } from "./step-ending-tool.js";

describe("endsStep: a tool whose call ends the step", () => {
  it("runs the call, ends the step with that model call's text (no further call), and the workflow goes on", async () => {
    const ran: string[] = [];
    const transfer = endsStep(
      tool({
        description: "Transfer",
        inputSchema: jsonSchema<{ to: string }>({ type: "object", properties: { to: { type: "string" } }, required: ["to"] }),
        execute: async ({ to }) => {
          ran.push(to);
          return "ok";
        },
      }),
    );
    const model = scriptedModel([{ text: "Passing you on.", toolCalls: [{ toolName: "transfer", input: { to: "desk" } }] }, "Next step."]);
    const result = await start(
      <Agent model={model}>
        <Tool name="transfer" value={transfer} />
        <Step id="first" prompt="Hi" />
        <Step id="second" prompt="And then?" />
      </Agent>,
    ).result;
    expect(ran).toEqual(["desk"]);
    expect(result.steps).toEqual({ first: "Passing you on.", second: "Next step." });
    expect(model.callCount).toBe(2);
  });

  it("a call that failed does not end the step: the model sees the error and answers", async () => {
    const failing = endsStep(
      tool({
        description: "Transfer",
        inputSchema: jsonSchema<{ to: string }>({ type: "object", properties: { to: { type: "string" } }, required: ["to"] }),
        execute: async (): Promise<string> => {
          throw new Error("no such desk");
        },
      }),
    );
    const model = scriptedModel([{ toolCalls: [{ toolName: "transfer", input: { to: "nowhere" } }] }, "I could not transfer you."]);
    const result = await start(
      <Agent model={model}>
        <Tool name="transfer" value={failing} />
        <Step id="first" prompt="Hi" />
      </Agent>,
    ).result;
    expect(result.steps.first).toBe("I could not transfer you.");
  });
});
