import { describe, expect, test } from "vitest";
import { CanceledError } from "../runtime/errors.js";
import type { ApprovalDecision, ApprovalRequest, DecisionOutcome, TraceNode } from "../runtime/types.js";
import { SessionBusyError } from "../stores/errors.js";
import { memoryStore } from "../stores/memory-store.js";
import type { ChatStore, JournalEntry } from "../stores/types.js";
import { createChat } from "./create-chat.js";
import { contextTurnIds } from "./context/resolve-context.js";
import { collect } from "../testing/streams.js";
import { InputTooLargeError, ResponderContractError, SteerNotSupportedError, TurnEndedError } from "./errors.js";
import type { Responder, TurnEvent, ResponderExecution, ResponderResult, RespondOptions, Turn } from "./types.js";

/** An async stream the test pushes into. */
function channel<T>() {
  const items: T[] = [];
  let done = false;
  let failure: unknown;
  let wake: (() => void) | undefined;
  const notify = () => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  return {
    push(item: T) {
      items.push(item);
      notify();
    },
    end() {
      done = true;
      notify();
    },
    fail(error: unknown) {
      failure = error;
      notify();
    },
    returned: false,
    async *[Symbol.asyncIterator](): AsyncGenerator<T> {
      try {
        for (;;) {
          if (items.length > 0) {
            yield items.shift()!;
            continue;
          }
          if (failure !== undefined) throw failure;
          if (done) return;
          await new Promise<void>((resolve) => (wake = resolve));
        }
      } finally {
        this.returned = true;
      }
    },
  };
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** A responder the test drives by hand: one execution per turn. */
function manualResponder(extra: Partial<ResponderExecution> = {}, identity: Partial<Responder> = {}) {
  const turns: { options: RespondOptions; events: ReturnType<typeof channel<TurnEvent>>; result: ReturnType<typeof deferred<ResponderResult>> }[] = [];
  const responder: Responder = {
    ...identity,
    respond(options) {
      const events = channel<TurnEvent>();
      const result = deferred<ResponderResult>();
      turns.push({ options, events, result });
      return { events, result: result.promise, ...extra };
    },
  };
  return { responder, turns, last: () => turns[turns.length - 1]! };
}


const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await tick();
  if (!check()) throw new Error("condition never held");
}

async function journal(store: ChatStore, sessionId: string): Promise<JournalEntry[]> {
  return store.read(sessionId);
}

const tree: TraceNode = { id: "run", kind: "run", name: "run", status: "running", children: [] };

describe("a custom responder's turn", () => {
  test("passes events through in order, resolves the result and journals start and end", async () => {
    const store = memoryStore();
    const { responder, last } = manualResponder({}, { id: "echo", version: "3" });
    const session = await createChat({ responder, store }).createSession({ id: "s1" });
    const turn = session.send("hello");
    expect(turn.status).toBe("running");
    expect(turn.sessionId).toBe("s1");
    expect(session.currentTurn).toBe(turn);
    const seen = collect(turn);
    await until(() => session.currentTurn !== undefined && last() !== undefined);
    const { events, result, options } = last();
    expect(options).toMatchObject({ input: "hello", messages: [], sessionId: "s1", turnId: turn.id });
    expect(options.signal.aborted).toBe(false);
    events.push({ type: "text-delta", text: "Hel" });
    events.push({ type: "run-update", tree });
    events.push({ type: "text-delta", text: "lo" });
    events.end();
    result.resolve({ text: "Hello", metadata: { finishReason: "stop" } });
    const done = await turn.result;
    expect(done).toEqual({ text: "Hello", metadata: { responder: { kind: "custom", id: "echo", version: "3" }, finishReason: "stop" } });
    expect((await seen).map((e) => e.type)).toEqual(["text-delta", "run-update", "text-delta"]);
    expect(turn.status).toBe("completed");
    expect(session.currentTurn).toBeUndefined();

    const entries = await journal(store, "s1");
    expect(entries.map((e) => e.type)).toEqual(["session", "turn-start", "turn-end"]);
    expect(entries[1]).toMatchObject({ turnId: turn.id, input: "hello", context: { builder: "fullContext", turnIds: [] } });
    expect(entries[2]).toMatchObject({ turnId: turn.id, status: "completed", text: "Hello", metadata: done.metadata });
  });

  test("journals each turn's end durably (sync: true), whether it completes, fails or is canceled", async () => {
    const inner = memoryStore();
    const appends: { types: string[]; sync: boolean }[] = [];
    const store: ChatStore = {
      ...inner,
      append: (sessionId, entries, options) => {
        appends.push({ types: entries.map((e) => e.type), sync: options.sync === true });
        return inner.append(sessionId, entries, options);
      },
    };
    const { responder, last } = manualResponder();
    const session = await createChat({ responder, store }).createSession();

    const completed = session.send("one");
    await until(() => last()?.options.input === "one");
    last().events.end();
    last().result.resolve({ text: "ok" });
    await completed.result;

    const failed = session.send("two");
    await until(() => last()?.options.input === "two");
    last().result.reject(new Error("down"));
    await failed.result.catch(() => {});

    const canceled = session.send("three");
    await until(() => last()?.options.input === "three");
    canceled.cancel();
    await canceled.result.catch(() => {});

    const ends = appends.filter((a) => a.types.includes("turn-end"));
    expect(ends).toEqual([
      { types: ["turn-end"], sync: true },
      { types: ["turn-end"], sync: true },
      { types: ["turn-end"], sync: true },
    ]);
    expect(appends.filter((a) => a.types.includes("turn-start")).every((a) => !a.sync)).toBe(true);
  });

  test("keeps only model, usage and finishReason from the responder's metadata", async () => {
    const store = memoryStore();
    const responder: Responder = {
      kind: "service",
      respond: () => ({
        result: Promise.resolve({
          text: "ok",
          metadata: {
            model: { provider: "acme", modelId: "m1", apiKey: "sk-secret" },
            usage: { inputTokens: 3, outputTokens: 4, totalTokens: 7, raw: { headers: "x" } },
            finishReason: "stop",
            request: { body: "raw provider traffic" },
          } as never,
        }),
      }),
    };
    const session = await createChat({ responder, store }).createSession();
    const { metadata } = await session.send("hi").result;
    expect(metadata).toEqual({
      responder: { kind: "service" },
      model: { provider: "acme", modelId: "m1" },
      usage: { inputTokens: 3, outputTokens: 4, totalTokens: 7 },
      finishReason: "stop",
    });
    const text = JSON.stringify(await journal(store, session.id));
    expect(text).not.toContain("sk-secret");
    expect(text).not.toContain("raw provider traffic");
  });

  test("events are buffered: every iteration replays from the first event", async () => {
    const { responder, last } = manualResponder();
    const session = await createChat({ responder }).createSession();
    const turn = session.send("hi");
    await until(() => last() !== undefined);
    const early = collect(turn);
    last().events.push({ type: "text-delta", text: "a" });
    await tick();
    const middle = collect(turn);
    last().events.push({ type: "text-delta", text: "b" });
    last().events.end();
    last().result.resolve({ text: "ab" });
    await turn.result;
    const late = await collect(turn);
    const texts = (events: TurnEvent[]) => events.map((e) => (e.type === "text-delta" ? e.text : e.type));
    expect(texts(await early)).toEqual(["a", "b"]);
    expect(texts(await middle)).toEqual(["a", "b"]);
    expect(texts(late)).toEqual(["a", "b"]);
    expect(texts(await collect(turn))).toEqual(["a", "b"]);
  });

  test("only text-delta, run-update and approval-request pass through", async () => {
    const responder: Responder = {
      respond() {
        async function* events() {
          yield { type: "text-delta", text: "x" } as TurnEvent;
          yield { type: "tool-result", output: "secret" } as unknown as TurnEvent;
          yield null as unknown as TurnEvent;
          yield { type: "text-delta", text: 5 } as unknown as TurnEvent;
          yield { type: "run-update", tree } as TurnEvent;
        }
        return { events: events(), result: Promise.resolve({ text: "x" }) };
      },
    };
    const turn = (await createChat({ responder }).createSession()).send("hi");
    await turn.result;
    expect((await collect(turn)).map((e) => e.type)).toEqual(["text-delta", "run-update"]);
  });

  test("ends only once the result resolves and the events end", async () => {
    const { responder, last } = manualResponder();
    const turn = (await createChat({ responder }).createSession()).send("hi");
    await until(() => last() !== undefined);
    last().result.resolve({ text: "done" });
    await tick();
    await tick();
    expect(turn.status).toBe("running");
    last().events.push({ type: "text-delta", text: "done" });
    last().events.end();
    await turn.result;
    expect(turn.status).toBe("completed");
    expect(await collect(turn)).toEqual([{ type: "text-delta", text: "done" }]);

    const second = manualResponder();
    const other = (await createChat({ responder: second.responder }).createSession()).send("hi");
    await until(() => second.last() !== undefined);
    second.last().events.end();
    await tick();
    await tick();
    expect(other.status).toBe("running");
    second.last().result.resolve({ text: "" });
    expect((await other.result).text).toBe("");
  });

  test("a turn without events completes from its result", async () => {
    const responder: Responder = { respond: ({ input }) => ({ result: Promise.resolve({ text: input.toUpperCase() }) }) };
    const turn = (await createChat({ responder }).createSession()).send("quiet");
    expect((await turn.result).text).toBe("QUIET");
    expect(await collect(turn)).toEqual([]);
  });

  test("a rejected result fails the turn with that error; iteration ends normally", async () => {
    const store = memoryStore();
    const { responder, last } = manualResponder();
    const session = await createChat({ responder, store }).createSession();
    const turn = session.send("hi");
    await until(() => last() !== undefined);
    last().events.push({ type: "text-delta", text: "par" });
    await turn[Symbol.asyncIterator]().next();
    const error = new RangeError("upstream said no");
    last().result.reject(error);
    await expect(turn.result).rejects.toBe(error);
    expect(turn.status).toBe("failed");
    expect(await collect(turn)).toEqual([{ type: "text-delta", text: "par" }]);
    // The stream is no longer read: the next thing it yields is not shown and the stream is closed.
    last().events.push({ type: "text-delta", text: "tial" });
    await until(() => last().events.returned);
    expect(await collect(turn)).toEqual([{ type: "text-delta", text: "par" }]);
    const end = (await journal(store, session.id)).at(-1);
    expect(end).toMatchObject({ type: "turn-end", status: "failed", error: { name: "RangeError", message: "upstream said no" } });
    expect(end).not.toHaveProperty("text");
  });

  test("an events stream that throws fails the turn", async () => {
    const { responder, last } = manualResponder();
    const session = await createChat({ responder }).createSession();
    const turn = session.send("hi");
    await until(() => last() !== undefined);
    last().result.resolve({ text: "never kept" });
    last().events.fail(new Error("stream broke"));
    await expect(turn.result).rejects.toThrow("stream broke");
    const [record] = await session.turns();
    expect(record).toMatchObject({ status: "failed", error: { name: "Error", message: "stream broke" } });
    expect(record!.text).toBeUndefined();
    // The turn is over, so whatever work the responder still has in flight is told to stop.
    expect(last().options.signal.aborted).toBe(true);
    expect(last().options.signal.reason).toMatchObject({ message: "stream broke" });
  });

  test("a responder that breaks the contract fails the turn with a clear error", async () => {
    const throwing: Responder = {
      respond() {
        throw new Error("cannot start");
      },
    };
    await expect((await createChat({ responder: throwing }).createSession()).send("x").result).rejects.toThrow("cannot start");
    const noResult: Responder = { respond: () => ({}) as never };
    await expect((await createChat({ responder: noResult }).createSession()).send("x").result).rejects.toBeInstanceOf(
      ResponderContractError,
    );
    const badText: Responder = { respond: () => ({ result: Promise.resolve({ text: 42 } as never) }) };
    await expect((await createChat({ responder: badText }).createSession()).send("x").result).rejects.toThrow(/string `text`/);
  });

  test("error messages are journaled with credentials masked", async () => {
    const store = memoryStore();
    const responder: Responder = {
      respond: () => ({ result: Promise.reject(new Error("401 for key sk-proj-abcdefghijklmnopqrstuvwxyz123456")) }),
    };
    const session = await createChat({ responder, store }).createSession();
    await expect(session.send("x").result).rejects.toThrow(/sk-proj/);
    const text = JSON.stringify(await journal(store, session.id));
    expect(text).toContain("[redacted]");
    expect(text).not.toContain("abcdefghijklmnopqrstuvwxyz123456");
  });
});

describe("one turn at a time", () => {
  test("send while a turn of this process runs throws SessionBusyError at once", async () => {
    const store = memoryStore();
    const { responder, last, turns } = manualResponder();
    const chat = createChat({ responder, store });
    const session = await chat.createSession();
    const turn = session.send("first");
    expect(() => session.send("second")).toThrow(SessionBusyError);
    // Another handle on the same session in this chat is busy too.
    const again = await chat.openSession(session.id);
    expect(() => again.send("third")).toThrow(SessionBusyError);
    expect(again.currentTurn).toBe(turn);
    await until(() => last() !== undefined);
    last().events.end();
    last().result.resolve({ text: "ok" });
    await turn.result;
    expect(turns).toHaveLength(1);
    const next = session.send("now free");
    await until(() => turns.length === 2);
    last().events.end();
    last().result.resolve({ text: "second" });
    expect((await next.result).text).toBe("second");
  });

  test("a lease held by another process fails the turn before anything is journaled", async () => {
    const store = memoryStore();
    let called = 0;
    const responder: Responder = {
      respond: () => {
        called++;
        return { result: Promise.resolve({ text: "x" }) };
      },
    };
    const session = await createChat({ responder, store }).createSession();
    const lease = await store.acquireTurn(session.id);
    const turn = session.send("hi");
    await expect(turn.result).rejects.toBeInstanceOf(SessionBusyError);
    expect(turn.status).toBe("failed");
    expect(called).toBe(0);
    expect((await journal(store, session.id)).map((e) => e.type)).toEqual(["session"]);
    expect(await session.turns()).toEqual([]);
    await store.releaseTurn(lease);
    expect((await session.send("hi").result).text).toBe("x");
  });

  test("the lease is released and the session free before the result settles", async () => {
    const store = memoryStore();
    const responder: Responder = { respond: () => ({ result: Promise.resolve({ text: "x" }) }) };
    const session = await createChat({ responder, store }).createSession();
    const observed = await session.send("hi").result.then(async () => {
      const free = session.currentTurn === undefined;
      const lease = await store.acquireTurn(session.id);
      await store.releaseTurn(lease);
      const next = session.send("next");
      return { free, next: await next.result };
    });
    expect(observed.free).toBe(true);
    expect(observed.next.text).toBe("x");

    const failing: Responder = { respond: () => ({ result: Promise.reject(new Error("no")) }) };
    const other = await createChat({ responder: failing, store }).createSession();
    const freeAfterFailure = await other.send("hi").result.then(
      () => false,
      async () => {
        const lease = await store.acquireTurn(other.id);
        await store.releaseTurn(lease);
        return other.currentTurn === undefined;
      },
    );
    expect(freeAfterFailure).toBe(true);
  });
});

describe("cancel", () => {
  test("aborts the responder's signal, records canceled and rejects the result", async () => {
    const store = memoryStore();
    let signal: AbortSignal | undefined;
    const responder: Responder = {
      respond(options) {
        signal = options.signal;
        async function* events() {
          for (let i = 0; ; i++) {
            options.signal.throwIfAborted();
            yield { type: "text-delta" as const, text: `${i} ` };
            await new Promise((resolve) => setTimeout(resolve, 2));
          }
        }
        return {
          events: events(),
          result: new Promise<ResponderResult>((_, reject) => options.signal.addEventListener("abort", () => reject(options.signal.reason))),
        };
      },
    };
    const session = await createChat({ responder, store }).createSession();
    const turn = session.send("count");
    let seen = 0;
    for await (const event of turn) {
      if (event.type === "text-delta" && ++seen === 3) turn.cancel();
    }
    await expect(turn.result).rejects.toBeInstanceOf(CanceledError);
    expect(turn.status).toBe("canceled");
    expect(signal?.aborted).toBe(true);
    expect((await journal(store, session.id)).at(-1)).toMatchObject({ type: "turn-end", status: "canceled" });
    expect((await session.turns())[0]).toMatchObject({ status: "canceled" });
    expect(await session.messages()).toEqual([]);
    turn.cancel();
    expect(turn.status).toBe("canceled");
  });

  test("ends the turn even when the responder ignores its signal", async () => {
    const { responder, last } = manualResponder();
    const session = await createChat({ responder }).createSession();
    const turn = session.send("hi");
    await until(() => last() !== undefined);
    turn.cancel();
    await expect(turn.result).rejects.toThrow(/canceled/);
    expect(last().options.signal.aborted).toBe(true);
    // A late result of the ignored execution changes nothing.
    last().result.resolve({ text: "late" });
    await tick();
    expect(turn.status).toBe("canceled");
  });

  test("a turn canceled before its responder starts journals a canceled turn and never calls it", async () => {
    const store = memoryStore();
    let called = false;
    const responder: Responder = {
      respond: () => {
        called = true;
        return { result: Promise.resolve({ text: "x" }) };
      },
    };
    const session = await createChat({ responder, store }).createSession();
    const turn = session.send("hi");
    turn.cancel();
    await expect(turn.result).rejects.toBeInstanceOf(CanceledError);
    expect(called).toBe(false);
    expect((await journal(store, session.id)).map((e) => e.type)).toEqual(["session", "turn-start", "turn-end"]);
  });
});

describe("approvals", () => {
  function approvingResponder() {
    const requests: ApprovalRequest[] = [];
    const decisions: { id: string; approved: boolean; reason?: string }[] = [];
    const state = manualResponder({
      get requests() {
        return requests;
      },
      decide(id: string, decision: ApprovalDecision): DecisionOutcome {
        const i = requests.findIndex((r) => r.id === id);
        if (i < 0) return { kind: "not-pending" };
        requests.splice(i, 1);
        decisions.push(decision.approved ? { id, approved: true } : { id, approved: false, reason: decision.reason });
        return { kind: "decided" };
      },
    });
    const ask = (id: string, toolName: string, input: unknown) => {
      const request: ApprovalRequest = { id, stepId: "reply", toolName, toolCallId: `call-${id}`, input };
      requests.push(request);
      state.last().events.push({ type: "approval-request", request });
    };
    return { ...state, requests, decisions, ask };
  }

  test("requests, approve and deny pass through to the execution and are journaled without tool input", async () => {
    const store = memoryStore();
    const r = approvingResponder();
    const session = await createChat({ responder: r.responder, store }).createSession();
    const turn = session.send("deploy");
    expect(turn.requests).toEqual([]);
    expect(turn.approve("nope")).toBe(false);
    await until(() => r.last() !== undefined);
    r.ask("a1", "deploy", { env: "staging", token: "do-not-store" });
    r.ask("a2", "deploy", { env: "prod" });

    for await (const event of turn) {
      if (event.type !== "approval-request") continue;
      const { id, input } = event.request;
      if (!turn.requests.some((request) => request.id === id)) continue;
      if ((input as { env: string }).env !== "prod") expect(turn.approve(id)).toBe(true);
      else expect(turn.deny(id, "Only non-prod deploys from chat")).toBe(true);
      if (turn.requests.length === 0) {
        r.last().events.end();
        r.last().result.resolve({ text: "deployed to staging" });
      }
    }
    await turn.result;
    expect(r.decisions).toEqual([
      { id: "a1", approved: true },
      { id: "a2", approved: false, reason: "Only non-prod deploys from chat" },
    ]);
    expect(turn.approve("a1")).toBe(false);
    const approvals = (await journal(store, session.id)).filter((e) => e.type === "approval");
    expect(approvals).toEqual([
      expect.objectContaining({ turnId: turn.id, requestId: "a1", toolName: "deploy", approved: true }),
      expect.objectContaining({ requestId: "a2", toolName: "deploy", approved: false, reason: "Only non-prod deploys from chat" }),
    ]);
    const text = JSON.stringify(await journal(store, session.id));
    expect(text).not.toContain("do-not-store");
    expect(text).not.toContain('"env"');
  });

  test("a decision is taken once, and unknown ids are refused", async () => {
    const r = approvingResponder();
    const session = await createChat({ responder: r.responder }).createSession();
    const turn = session.send("go");
    await until(() => r.last() !== undefined);
    r.ask("a1", "deploy", {});
    await until(() => turn.requests.length === 1);
    expect(turn.deny("zzz")).toBe(false);
    expect(turn.approve("a1")).toBe(true);
    expect(turn.deny("a1")).toBe(false);
    expect(r.decisions).toHaveLength(1);
    r.last().events.end();
    r.last().result.resolve({ text: "ok" });
    await turn.result;
  });

  test("a responder without approvals returns false", async () => {
    const { responder, last } = manualResponder();
    const turn = (await createChat({ responder }).createSession()).send("hi");
    await until(() => last() !== undefined);
    expect(turn.requests).toEqual([]);
    expect(turn.approve("x")).toBe(false);
    expect(turn.deny("x", "no")).toBe(false);
    last().events.end();
    last().result.resolve({ text: "ok" });
    await turn.result;
  });

  test("remember: 'session' approves later calls of the same tool without asking", async () => {
    const store = memoryStore();
    const r = approvingResponder();
    const chat = createChat({ responder: r.responder, store });
    const session = await chat.createSession();
    const first = session.send("one");
    await until(() => r.last() !== undefined);
    r.ask("a1", "search", { q: "x" });
    await until(() => first.requests.length === 1);
    expect(first.approve("a1", { remember: "session" })).toBe(true);
    r.last().events.end();
    r.last().result.resolve({ text: "ok" });
    await first.result;

    // A fresh handle reads the policy back from the journal.
    const reopened = await chat.openSession(session.id);
    const second = reopened.send("two");
    await until(() => r.turns.length === 2);
    r.ask("b1", "search", { q: "y" });
    r.ask("b2", "deploy", {});
    await until(() => r.decisions.length === 2 || second.requests.length === 1);
    expect(r.decisions.map((d) => d.id)).toEqual(["a1", "b1"]);
    expect(second.requests.map((q) => q.id)).toEqual(["b2"]);
    r.last().events.end();
    r.last().result.resolve({ text: "ok" });
    await second.result;
    // The remembered approval is a decision by policy: an event of its own, never a request.
    const said = (await collect(second)).map((e) => (e.type === "approval-request" ? e.request.id : e.type === "policy-decision" ? `policy ${e.decision.id}` : false));
    expect(said).toEqual(["policy b1", "b2"]);
    const approvals = (await journal(store, session.id)).filter((e) => e.type === "approval");
    expect(approvals).toMatchObject([
      { requestId: "a1", toolName: "search", approved: true, remember: "session" },
      { requestId: "b1", toolName: "search", approved: true },
    ]);
  });

  test("revokeApproval journals a revocation without a request; the tool asks again, also after reopening", async () => {
    const store = memoryStore();
    const r = approvingResponder();
    const chat = createChat({ responder: r.responder, store });
    const session = await chat.createSession();
    await expect(session.revokeApproval("")).rejects.toBeInstanceOf(TypeError);
    expect(await session.revokeApproval("search")).toBe(false);
    const first = session.send("one");
    await until(() => r.last() !== undefined);
    r.ask("a1", "search", {});
    r.ask("a2", "deploy", {});
    await until(() => first.requests.length === 2);
    expect(first.approve("a1", { remember: "session" })).toBe(true);
    expect(first.approve("a2", { remember: "session" })).toBe(true);
    r.last().events.end();
    r.last().result.resolve({ text: "ok" });
    await first.result;
    expect(await session.rememberedApprovals()).toEqual(["deploy", "search"]);

    expect(await session.revokeApproval("search")).toBe(true);
    expect(await session.rememberedApprovals()).toEqual(["deploy"]);
    const approvals = (await journal(store, session.id)).filter((e) => e.type === "approval");
    const revocation = approvals.at(-1)!;
    expect(revocation).toMatchObject({ toolName: "search", approved: false, remember: "session" });
    expect(revocation).not.toHaveProperty("requestId");
    expect(revocation).not.toHaveProperty("turnId");

    const reopened = await chat.openSession(session.id);
    expect(await reopened.rememberedApprovals()).toEqual(["deploy"]);
    const second = reopened.send("two");
    await until(() => r.turns.length === 2);
    r.ask("b1", "search", {});
    r.ask("b2", "deploy", {});
    await until(() => second.requests.length === 1 && r.decisions.length === 3);
    // deploy is still approved for the session; search asks again.
    expect(second.requests.map((q) => q.id)).toEqual(["b1"]);
    expect(r.decisions.map((d) => d.id)).toEqual(["a1", "a2", "b2"]);
    expect(second.deny("b1", "not now")).toBe(true);
    r.last().events.end();
    r.last().result.resolve({ text: "ok" });
    await second.result;
  });

  test("the journal refuses an approval entry that is neither a decision nor a revocation", async () => {
    const store = memoryStore();
    const { id } = await store.createSession({ id: "revoke-check" });
    await expect(store.append(id, [{ type: "approval", toolName: "search", approved: true, remember: "session" }], { expectedSeq: 1 })).rejects.toThrow(/revocation/);
    await expect(store.append(id, [{ type: "approval", turnId: "t", toolName: "search", approved: true }], { expectedSeq: 1 })).rejects.toThrow(/requestId/);
    await expect(store.append(id, [{ type: "approval", toolName: "", approved: false, remember: "session" }], { expectedSeq: 1 })).rejects.toThrow(/toolName/);
    await store.append(id, [{ type: "approval", toolName: "search", approved: false, remember: "session" }], { expectedSeq: 1 });
    expect((await store.read(id)).map((e) => e.type)).toEqual(["session", "approval"]);
  });
});

describe("steer", () => {
  test("rejects with SteerNotSupportedError when the execution has no steer, TurnEndedError once over", async () => {
    const { responder, last } = manualResponder();
    const turn = (await createChat({ responder }).createSession()).send("hi");
    await expect(turn.steer("more")).rejects.toBeInstanceOf(SteerNotSupportedError);
    last().events.end();
    last().result.resolve({ text: "ok" });
    await turn.result;
    await expect(turn.steer("more")).rejects.toBeInstanceOf(TurnEndedError);
  });

  test("passes the input to the execution and journals it with how much of the reply was written", async () => {
    const store = memoryStore();
    const steered: string[] = [];
    const { responder, last } = manualResponder({ steer: (input: string) => void steered.push(input) });
    const session = await createChat({ responder, store }).createSession();
    const turn = session.send("write");
    await expect(turn.steer("")).rejects.toBeInstanceOf(TypeError);
    await until(() => last() !== undefined);
    last().events.push({ type: "text-delta", text: "abc" });
    last().events.push({ type: "run-update", tree });
    last().events.push({ type: "text-delta", text: "de" });
    let count = 0;
    for await (const _event of turn) if (++count === 3) break;
    await turn.steer("shorter please");
    expect(steered).toEqual(["shorter please"]);
    last().events.push({ type: "text-delta", text: "f" });
    last().events.end();
    last().result.resolve({ text: "abcdef" });
    await turn.result;
    const steer = (await journal(store, session.id)).find((e) => e.type === "steer");
    expect(steer).toMatchObject({ turnId: turn.id, input: "shorter please", atChar: 5 });
    const [record] = await session.turns();
    expect(record!.steers).toEqual([{ input: "shorter please", atChar: 5 }]);
    expect((await session.messages()).map((m) => m.content)).toEqual(["write", "abcde", "shorter please", "f"]);
  });
});

describe("input", () => {
  test("must be a non-empty string within maxInputChars; nothing is journaled otherwise", async () => {
    const store = memoryStore();
    let called = 0;
    const responder: Responder = {
      respond: () => {
        called++;
        return { result: Promise.resolve({ text: "x" }) };
      },
    };
    const session = await createChat({ responder, store, maxInputChars: 10 }).createSession();
    expect(() => session.send(42 as never)).toThrow(TypeError);
    expect(() => session.send(undefined as never)).toThrow(/must be a string/);
    expect(() => session.send("")).toThrow(/must not be empty/);
    expect(() => session.send("x".repeat(11))).toThrow(InputTooLargeError);
    try {
      session.send("x".repeat(11));
    } catch (error) {
      expect(error).toMatchObject({ name: "InputTooLargeError", length: 11, maxInputChars: 10 });
    }
    expect(session.currentTurn).toBeUndefined();
    expect(called).toBe(0);
    expect((await journal(store, session.id)).map((e) => e.type)).toEqual(["session"]);
    expect((await session.send("x".repeat(10)).result).text).toBe("x");
  });

  test("the default limit is a million characters", async () => {
    const responder: Responder = { respond: () => ({ result: Promise.resolve({ text: "x" }) }) };
    const session = await createChat({ responder }).createSession();
    expect(() => session.send("y".repeat(1_000_001))).toThrow(InputTooLargeError);
    await expect(session.send("y".repeat(1_000_000)).result).resolves.toMatchObject({ text: "x" });
  });
});

describe("history and context", () => {
  const echo: Responder = {
    respond: ({ input, messages }) => ({ result: Promise.resolve({ text: `${input}:${messages.length}` }) }),
  };

  test("each turn sees the completed turns before it and records which ones", async () => {
    const store = memoryStore();
    const flaky: Responder = {
      respond: (options) =>
        options.input === "fail" ? { result: Promise.reject(new Error("x")) } : echo.respond(options),
    };
    const session = await createChat({ responder: flaky, store }).createSession();
    const a = session.send("a");
    await a.result;
    await session.send("fail").result.catch(() => {});
    const c = session.send("c");
    expect((await c.result).text).toBe("c:2");
    const starts = (await journal(store, session.id)).filter((e) => e.type === "turn-start");
    expect(starts.map((e) => e.type === "turn-start" && e.context)).toEqual([
      { builder: "fullContext", turnIds: [] },
      { builder: "fullContext", turnIds: [], completedThrough: a.id },
      { builder: "fullContext", turnIds: [], completedThrough: a.id },
    ]);
    const turns = await session.turns();
    expect(contextTurnIds(turns[2]!.context!, turns)).toEqual([a.id]);
    expect((await session.turns()).map((t) => t.status)).toEqual(["completed", "failed", "completed"]);
    expect((await session.messages()).map((m) => m.content)).toEqual(["a", "a:0", "c", "c:2"]);
  });

  test("a custom builder's bare messages record no turn ids", async () => {
    const store = memoryStore();
    const session = await createChat({
      responder: echo,
      store,
      context: () => [{ role: "user", content: "pinned note" }],
    }).createSession();
    await session.send("a").result;
    expect((await session.send("b").result).text).toBe("b:1");
    const start = (await journal(store, session.id)).findLast((e) => e.type === "turn-start");
    expect(start).toMatchObject({ context: { builder: "custom", turnIds: [] } });
  });

  test("a failing context builder fails the turn and journals nothing", async () => {
    const store = memoryStore();
    const session = await createChat({
      responder: echo,
      store,
      context: () => {
        throw new Error("no history for you");
      },
    }).createSession();
    await expect(session.send("a").result).rejects.toMatchObject({ name: "ContextBuildError" });
    expect((await journal(store, session.id)).map((e) => e.type)).toEqual(["session"]);
    await expect(session.messages()).rejects.toThrow(/no history for you/);
  });

  test("a turn-start with no turn-end reads as interrupted and is left out; the running turn reads running", async () => {
    const store = memoryStore();
    const { responder, last } = manualResponder();
    const chat = createChat({ responder, store });
    const session = await chat.createSession({ id: "crashy" });
    await store.append(
      "crashy",
      [
        { type: "turn-start", turnId: "old", input: "lost", context: { builder: "fullContext", turnIds: [] } },
        { type: "turn-start", turnId: "done", input: "kept", context: { builder: "fullContext", turnIds: [] } },
        { type: "turn-end", turnId: "done", status: "completed", text: "yes", metadata: { responder: { kind: "custom" } } },
      ],
      { expectedSeq: 1 },
    );
    const reopened = await chat.openSession("crashy");
    const turn = reopened.send("now");
    await until(() => last() !== undefined);
    expect(last().options.messages.map((m) => m.content)).toEqual(["kept", "yes"]);
    const records = await session.turns();
    expect(records.map((t) => [t.id, t.status])).toEqual([
      ["old", "interrupted"],
      ["done", "completed"],
      [turn.id, "running"],
    ]);
    last().events.end();
    last().result.resolve({ text: "fine" });
    await turn.result;
    expect((await reopened.turns()).map((t) => t.status)).toEqual(["interrupted", "completed", "completed"]);
  });

  test("turns() hands out the session's records, frozen: shared, and no caller can change them", async () => {
    const session = await createChat({ responder: echo }).createSession();
    await session.send("a").result;
    const [record] = await session.turns();
    expect(Object.isFrozen(record)).toBe(true);
    expect(() => {
      record!.text = "changed";
    }).toThrow(TypeError);
    expect(() => record!.steers.push({ input: "x", atChar: 0 })).toThrow(TypeError);
    const [again] = await session.turns();
    // The same record, not a copy of it.
    expect(again).toBe(record);
    expect(again).toMatchObject({ text: "a:0", steers: [] });
  });

  test("entries written by another writer are picked up without re-reading the journal for every turn", async () => {
    const inner = memoryStore();
    const reads: (number | undefined)[] = [];
    const store: ChatStore = {
      ...inner,
      read: (id, options) => {
        reads.push(options?.fromSeq);
        return inner.read(id, options);
      },
    };
    const session = await createChat({ responder: echo, store }).createSession({ id: "busy" });
    reads.length = 0;
    for (let i = 0; i < 5; i++) await session.send(`t${i}`).result;
    expect(reads).toEqual([]);
    const records = await session.turns();
    expect(reads).toEqual([12]);
    // Another writer appends feedback; the next turn's append conflicts, reads only what is new, and goes on.
    await inner.append("busy", [{ type: "feedback", turnId: records[0]!.id, score: 1 }], { expectedSeq: 11 });
    reads.length = 0;
    expect((await session.send("after").result).text).toBe("after:10");
    expect(reads).toEqual([12]);
    expect((await session.turns())[0]!.feedback).toEqual({ score: 1 });
  });
});

// Keeps the Turn type honest: a Turn is an async iterable of TurnEvents.
const _typeCheck = (turn: Turn): AsyncIterable<TurnEvent> => turn;
void _typeCheck;
