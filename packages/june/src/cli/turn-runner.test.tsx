import { jsonSchema, tool } from "ai";
import { Agent, Step, Tool } from "june";
import { agentResponder, createChat, type Chat } from "june/chat";
import { scriptedModel, type ScriptCallInfo, type ScriptEntry } from "june/testing";
import { describe, expect, it } from "vitest";
import { memoryStore } from "../stores/memory-store.js";
import { createFakeIO, type FakeIO } from "./__fixtures__/fake-io.js";
import { createApprover, NO_ONE_TO_APPROVE } from "./approvals.js";
import type { ApprovalMode } from "./args.js";
import { createLineReader, type LineReader } from "./line-reader.js";
import { Screen } from "./screen.js";
import { exitCodeOf, showTurn } from "./turn-runner.js";

/** A chat whose single step calls `deploy` (which needs approval), then says what came of it. */
function deployChat(executed: string[], options: { slow?: boolean } = {}): Chat {
  const deploy = tool({
    description: "Deploy",
    inputSchema: jsonSchema<{ env: string; token: string }>({
      type: "object",
      properties: { env: { type: "string" }, token: { type: "string" } },
      required: ["env"],
    }),
    needsApproval: true,
    execute: async ({ env }) => {
      executed.push(env);
      return `deployed to ${env}`;
    },
  });
  const script = ({ options: call }: ScriptCallInfo): ScriptEntry => {
    const last = call.prompt.at(-1);
    if (last?.role === "tool") {
      const part = last.content.find((p) => p.type === "tool-result");
      const output = part?.type === "tool-result" ? part.output : undefined;
      return output?.type === "execution-denied" ? `Not deployed: ${output.reason}` : "Deployed.";
    }
    // Words: the reply reaches the screen a whole word at a time (redacted as the HTTP stream is).
    if (options.slow) return { text: ["a ", "b ", "c ", "d ", "e ", "f "], delay: 50 };
    return { toolCalls: [{ toolName: "deploy", input: { env: "staging", token: "secret-token-value" } }] };
  };
  const model = scriptedModel(script);
  return createChat({
    responder: agentResponder({
      render: ({ messages, input }) => (
        <Agent model={model}>
          <Tool name="deploy" value={deploy} />
          <Step id="work" prompt={[...messages, { role: "user", content: input }]} />
        </Agent>
      ),
      reply: (result) => String(result.steps.work),
      stream: options.slow ? { step: "work" } : undefined,
    }),
    store: memoryStore(),
  });
}

async function turnOf(chat: Chat, input = "Deploy it") {
  const session = await chat.createSession();
  return session.send(input);
}

function setup(io: FakeIO, mode: ApprovalMode) {
  const screen = new Screen(io);
  let reader: LineReader | undefined;
  const approver = createApprover({ mode, io, screen, reader: () => (reader ??= createLineReader(io)) });
  return { screen, approver, close: () => reader?.close() };
}

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 400 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  if (!check()) throw new Error("timed out waiting");
}

describe("showTurn", () => {
  it("asks on stderr and runs the tool when the answer is y", async () => {
    const executed: string[] = [];
    const io = createFakeIO({ stdinTTY: true });
    const { screen, approver, close } = setup(io, "ask");
    const turn = await turnOf(deployChat(executed));
    const shown = showTurn({ io, screen, turn, input: "Deploy it", approver, json: false });
    await until(() => io.stderrText().includes("approve? [y/N/e(dit)]"));
    expect(io.stderrText()).toContain("deploy wants to run with");
    expect(io.stderrText()).not.toContain("secret-token-value");
    io.input.write("y\n");
    const outcome = await shown;
    close();
    expect(outcome.status).toBe("completed");
    expect(exitCodeOf(outcome)).toBe(0);
    expect(executed).toEqual(["staging"]);
    // The step does not stream: the reply arrives whole, from the result, and is printed all the same.
    expect(io.stdoutText()).toBe("Deployed.");
  });

  it("e edits the input field by field when there is no $EDITOR: a refused edit is said and asked again; the tool runs once with the edit", async () => {
    const executed: string[] = [];
    const io = createFakeIO({ stdinTTY: true });
    const { screen, approver, close } = setup(io, "ask");
    const turn = await turnOf(deployChat(executed));
    const shown = showTurn({ io, screen, turn, input: "Deploy it", approver, json: false });
    await until(() => io.stderrText().includes("approve? [y/N/e(dit)]"));
    io.input.write("e\n");
    await until(() => io.stderrText().includes('env ["staging"]: '));
    io.input.write("5\n");
    await until(() => io.stderrText().includes("token ["));
    io.input.write("\n");
    // 5 is a number: the tool's schema refuses it, and the request is asked again.
    await until(() => /input\.env must be string/.test(io.stderrText()));
    await until(() => io.stderrText().split("approve? [y/N/e(dit)]").length === 3);
    io.input.write("e\n");
    await until(() => io.stderrText().split('env ["staging"]: ').length === 3);
    io.input.write("production\n");
    await until(() => io.stderrText().split("token [").length === 3);
    io.input.write("\n");
    const outcome = await shown;
    close();
    expect(outcome.status).toBe("completed");
    expect(executed).toEqual(["production"]);
    // The field prompts show the input redacted, as the approval prompt does.
    expect(io.stderrText()).not.toContain("secret-token-value");
  });

  it("e opens the input as JSON in $EDITOR and approves with what was saved", async () => {
    const executed: string[] = [];
    const opened: { text: string; editor: string }[] = [];
    const io = Object.assign(createFakeIO({ stdinTTY: true, env: { EDITOR: "vi" } }), {
      editText: async (text: string, editor: string) => {
        opened.push({ text, editor });
        return JSON.stringify({ ...JSON.parse(text), env: "preview" });
      },
    });
    const { screen, approver, close } = setup(io, "ask");
    const turn = await turnOf(deployChat(executed));
    const shown = showTurn({ io, screen, turn, input: "Deploy it", approver, json: false });
    await until(() => io.stderrText().includes("approve? [y/N/e(dit)]"));
    io.input.write("e\n");
    const outcome = await shown;
    close();
    expect(outcome.status).toBe("completed");
    expect(opened).toEqual([{ text: expect.stringContaining('"env": "staging"'), editor: "vi" }]);
    expect(executed).toEqual(["preview"]);
  });

  it("does not run the tool when the answer is n", async () => {
    const executed: string[] = [];
    const io = createFakeIO({ stdinTTY: true });
    const { screen, approver, close } = setup(io, "ask");
    const turn = await turnOf(deployChat(executed));
    const shown = showTurn({ io, screen, turn, input: "Deploy it", approver, json: false });
    await until(() => io.stderrText().includes("approve? [y/N/e(dit)]"));
    io.input.write("n\n");
    const outcome = await shown;
    close();
    expect(outcome.status === "completed" && outcome.result.text).toBe("Not deployed: denied by the user");
    expect(executed).toEqual([]);
  });

  it("denies with no one to approve when stdin is not a terminal, and says so", async () => {
    const executed: string[] = [];
    const io = createFakeIO({ stdinTTY: false });
    const { screen, approver } = setup(io, "ask");
    const turn = await turnOf(deployChat(executed));
    const outcome = await showTurn({ io, screen, turn, input: "Deploy it", approver, json: false });
    expect(outcome.status === "completed" && outcome.result.text).toBe(`Not deployed: ${NO_ONE_TO_APPROVE}`);
    expect(executed).toEqual([]);
    expect(io.stderrText()).toContain(`✗ denied deploy (${NO_ONE_TO_APPROVE})`);
  });

  it("approves everything with --yes and denies everything with --deny", async () => {
    const executed: string[] = [];
    for (const mode of ["yes", "deny"] as const) {
      const io = createFakeIO();
      const { screen, approver } = setup(io, mode);
      await showTurn({ io, screen, turn: await turnOf(deployChat(executed)), input: "x", approver, json: false });
    }
    expect(executed).toEqual(["staging"]);
  });

  it("prints every event as a JSON line with --json, never the raw tool input", async () => {
    const io = createFakeIO();
    const { screen, approver } = setup(io, "yes");
    const turn = await turnOf(deployChat([]));
    await showTurn({ io, screen, turn, input: "Deploy it", approver, json: true });
    const lines = io.stdoutText().trimEnd().split("\n");
    const events = lines.map((line) => JSON.parse(line) as { type: string });
    expect(events[0]).toMatchObject({ type: "turn-start", turnId: turn.id, sessionId: turn.sessionId, input: "Deploy it" });
    expect(events.at(-1)).toMatchObject({ type: "turn-end", status: "completed", text: "Deployed." });
    const types = new Set(events.map((event) => event.type));
    for (const type of ["run-update", "approval-request", "approval"]) expect(types).toContain(type);
    expect(io.stdoutText()).not.toContain("secret-token-value");
    const request = events.find((event) => event.type === "approval-request") as unknown as { request: { input: unknown } };
    expect(typeof request.request.input).toBe("string");
  });

  it("cancels the turn at the first interrupt (exit 130) and quits at the second", async () => {
    const io = createFakeIO();
    const { screen, approver } = setup(io, "deny");
    const turn = await turnOf(deployChat([], { slow: true }));
    const shown = showTurn({ io, screen, turn, input: "x", approver, json: false });
    await until(() => io.stdoutText().length > 0);
    io.interrupt();
    expect(() => io.interrupt()).toThrow("exit 130");
    expect(io.exits).toEqual([130]);
    const outcome = await shown;
    expect(outcome.status).toBe("canceled");
    expect(exitCodeOf(outcome)).toBe(130);
    expect(io.stderrText()).toContain("canceled");
    expect(io.stdoutText().length).toBeLessThan("a b c d e f ".length);
  });

  it("reports a failed turn on stderr (exit 1)", async () => {
    const failing = createChat({
      model: scriptedModel({ error: new Error("provider exploded"), errorAt: "start" }),
      store: memoryStore(),
      maxRetries: 0,
    });
    const io = createFakeIO();
    const { screen, approver } = setup(io, "ask");
    const outcome = await showTurn({ io, screen, turn: await turnOf(failing), input: "x", approver, json: false });
    expect(outcome.status).toBe("failed");
    expect(exitCodeOf(outcome)).toBe(1);
    expect(io.stderrText()).toMatch(/^june: the turn failed: .*provider exploded/m);
  });
});
