/**
 * One turn of `agentResponder({ agents })`: the agent that holds the conversation runs, and when it hands off
 * (its model's `handoff` call, or its `handoff(result)` function) the new agent answers the same input in the
 * same turn (`handoff: "same-turn"`, the default), up to `maxHandoffs` times. The turn's events, requests,
 * checkpoints and spend are those of the agent running now, after those of the agents before it.
 */
import type { ApprovalRequest, PolicyApproval, RunCheckpoint, TraceNode } from "../../../runtime/types.js";
import { assertRunCheckpoint } from "../../../runtime/checkpoint.js";
import { addSpent, assertWithinBudget, NOTHING_SPENT, type Budget, type Spent } from "../../../cost/budget.js";
import type { HandoffRecord } from "../../../stores/types.js";
import { ReplayBuffer } from "../../internal/replay-buffer.js";
import type { ResponderTraceNode } from "../../trace/responder-trace.js";
import type { ResponderCheckpoint, ResponderExecution, ResponderMetadata, ResponderResult, RespondOptions, TurnEvent } from "../../types.js";
import { startExecution, type ChainLink } from "./agent-run.js";
import type { AgentResponderOptions } from "./agent-responder.js";
import type { AgentTeamOptions } from "./agent-team.js";
import { HandoffError } from "../../../errors/handoff-error.js";
import { handoffTool } from "./handoff-tool.js";

/** How many times a turn hands off at most, unless `maxHandoffs` says otherwise. */
export const DEFAULT_MAX_HANDOFFS = 3;

/** Between the text an agent streamed before it handed off and the next agent's reply. */
const SEPARATOR = "\n\n";

/**
 * A team turn's durable state: which agent runs (its run's checkpoint, or `null` before its first), the handoffs
 * so far and what the agents before it spent. JSON-safe. A checkpoint stored before handoffs answered in the same
 * turn is a bare `RunCheckpoint` of the agent that held the conversation: still resumed.
 */
export interface TeamCheckpointState {
  team: 1;
  agent: string;
  handoffs: HandoffRecord[];
  spent?: ResponderMetadata;
  run: RunCheckpoint | null;
}

/** Where a team turn starts: a new turn, or a resumed one's state. */
interface ChainStart {
  agent: string;
  handoffs: HandoffRecord[];
  spent: ResponderMetadata | undefined;
  run: RunCheckpoint | undefined;
}

/** Reads a resumed team turn's checkpoint (a `TeamCheckpointState`, or a bare `RunCheckpoint` of `holder`). */
export function chainStart(options: AgentTeamOptions, holder: string, checkpoint: unknown): ChainStart {
  const state = checkpoint as Partial<TeamCheckpointState> | null;
  if (typeof state === "object" && state !== null && state.team === 1) {
    if (typeof state.agent !== "string" || !Object.hasOwn(options.agents, state.agent)) {
      throw new TypeError(`agentResponder.resume(): checkpoint names agent ${JSON.stringify(state.agent)}, which the responder does not have (${Object.keys(options.agents).join(", ")})`);
    }
    if (!Array.isArray(state.handoffs)) throw new TypeError("agentResponder.resume(): checkpoint's `handoffs` must be an array");
    if (state.run !== null) assertRunCheckpoint(state.run, "agentResponder.resume(): checkpoint");
    return { agent: state.agent, handoffs: [...state.handoffs], spent: state.spent, run: state.run ?? undefined };
  }
  assertRunCheckpoint(checkpoint, "agentResponder.resume(): checkpoint");
  return { agent: holder, handoffs: [], spent: undefined, run: checkpoint };
}

/** The turn of a team: the first agent's run, and each agent's it hands off to. */
export function chainExecution(options: AgentTeamOptions, turn: RespondOptions, start: ChainStart): ResponderExecution {
  const sameTurn = options.handoff !== "next-turn";
  const maxHandoffs = options.maxHandoffs ?? DEFAULT_MAX_HANDOFFS;
  const events = new ReplayBuffer<TurnEvent>({ discardRead: true });
  const handoffs = start.handoffs;
  // The agents this turn ran, in order: a handoff back to one of them is a loop.
  const chain = handoffs.length > 0 ? [handoffs[0]!.from, ...handoffs.map((h) => h.to)] : [start.agent];
  let spentBefore = start.spent;
  let policyBefore: readonly PolicyApproval[] = [];
  // The earlier agents' runs as the turn last showed them (this process's; a resumed turn shows its own agent's).
  const shownBefore: ResponderTraceNode[] = [];
  // What the turn streamed before the agent running now: earlier agents' text, each followed by a separator.
  let streamedBefore = "";

  /** One agent's run in the turn. */
  const launch = (key: string, from: RunCheckpoint | undefined) => {
    const agent = options.agents[key]!;
    let handed: { to: string; reason?: string } | undefined;
    const tool = handoffTool(options.agents, key, sameTurn, (to, reason) => {
      handed ??= reason === undefined ? { to } : { to, reason };
    });
    const index = handoffs.length;
    const ids = new WeakMap<object, ResponderTraceNode>();
    let shown: ResponderTraceNode | undefined;
    const link: ChainLink = {
      events,
      tree: (tree) => {
        shown = index === 0 ? tree : renamed(tree, `${key}#${index}:`, ids);
        return index === 0 ? tree : chainTree(shownBefore, shown);
      },
      handedOff: () => sameTurn && handed !== undefined,
      streamed: "",
    };
    const single: AgentResponderOptions = {
      render: (renderOptions) => agent.render(tool ? { ...renderOptions, handoff: tool } : renderOptions),
      reply: agent.reply,
    };
    if (options.id !== undefined) single.id = options.id;
    if (options.version !== undefined) single.version = options.version;
    if (agent.stream !== undefined) single.stream = agent.stream;
    if (options.run !== undefined) single.run = options.run;
    if (options.startRun !== undefined) single.startRun = options.startRun;
    if (options.durable !== undefined) single.durable = options.durable;
    const execution = startExecution(single, agentTurn(turn, key, handoffs, spentBefore), from, link);
    return { key, agent, execution, link, handed: () => handed, shown: () => shown };
  };

  let current = launch(start.agent, start.run);
  // True once what the agent running now spent and decided is in `spentBefore` and `policyBefore` (it handed off).
  let folded = false;
  const restored = current.execution.restored;

  const result = (async (): Promise<ResponderResult> => {
    try {
      for (;;) {
        const outcome = await current.execution.result;
        const run = outcome.run;
        const byCode = current.agent.handoff && run ? codeTarget(current.agent.handoff(run), current.key) : undefined;
        const chosen = byCode ?? current.handed();
        // `next-turn`: a handoff is recorded, and the next turn goes to it; an agent naming itself stays.
        if (chosen === undefined || (!sameTurn && chosen.to === current.key)) return finalResult(current.key, outcome);
        refuse(chosen.to, current.key);
        handoffs.push({ from: current.key, to: chosen.to, ...(chosen.reason !== undefined ? { reason: chosen.reason } : {}) });
        if (!sameTurn) return finalResult(current.key, outcome);

        // The next agent answers the same input: what came before stays in the turn.
        chain.push(chosen.to);
        spentBefore = addMetadata(spentBefore, outcome.metadata);
        policyBefore = [...policyBefore, ...(current.execution.policyDecisions ?? [])];
        folded = true;
        const before = current.shown();
        if (before) shownBefore.push(before);
        if (current.link.streamed !== "") {
          streamedBefore += current.link.streamed + SEPARATOR;
          events.push({ type: "text-delta", text: SEPARATOR });
        }
        withinBudget(turn, spentBefore);
        // A durable turn stores the handoff before the next agent starts: a resume starts that agent.
        if (turn.onCheckpoint) await turn.onCheckpoint({ state: teamState(chosen.to, handoffs, spentBefore, null), requests: [] });
        current = launch(chosen.to, undefined);
        folded = false;
      }
    } finally {
      events.end();
    }
  })();

  /** A handoff that cannot happen: the turn fails naming the chain. */
  function refuse(to: string, from: string): void {
    const agents = Object.keys(options.agents);
    const problem = !Object.hasOwn(options.agents, to)
      ? "unknown"
      : to === from
        ? "itself"
        : sameTurn && chain.includes(to)
          ? "loop"
          : sameTurn && handoffs.length >= maxHandoffs
            ? "limit"
            : undefined;
    if (problem) throw new HandoffError({ problem, chain: [...chain, to], maxHandoffs, agents });
  }

  function finalResult(key: string, outcome: ResponderResult): ResponderResult {
    const agent = options.agents[key]!;
    const spent = addMetadata(spentBefore, outcome.metadata);
    let text = outcome.text;
    if (streamedBefore !== "") {
      // The agents before streamed: the reply continues their text, and its deltas add up to it.
      if (current.link.streamed === "" && text !== "") events.push({ type: "text-delta", text });
      text = streamedBefore + text;
    }
    const handoff = handoffs.length === 0 ? undefined : handoffs.length === 1 ? handoffs[0]! : [...handoffs];
    return {
      ...outcome,
      text,
      metadata: {
        ...spent,
        agent: { id: key, ...(agent.version !== undefined ? { version: agent.version } : {}) },
        ...(handoff ? { handoff } : {}),
      },
    };
  }

  return {
    result,
    events,
    get requests(): readonly ApprovalRequest[] {
      return current.execution.requests ?? [];
    },
    get policyDecisions(): readonly PolicyApproval[] {
      const now = folded ? [] : (current.execution.policyDecisions ?? []);
      return policyBefore.length === 0 ? now : now.length === 0 ? policyBefore : [...policyBefore, ...now];
    },
    decide: (id, decision) => current.execution.decide!(id, decision),
    answer: (id, value) => current.execution.answer!(id, value),
    steer: (input) => current.execution.steer!(input),
    checkpoint: () => {
      const saved = current.execution.checkpoint?.();
      return saved && { ...saved, state: teamState(current.key, handoffs, spentBefore, saved.state as RunCheckpoint) };
    },
    spent: () => {
      const now = folded ? undefined : current.execution.spent?.();
      return now || spentBefore ? addMetadata(spentBefore, now) : undefined;
    },
    ...(restored ? { restored } : {}),
  };

  /** The turn as agent `key` gets it: its checkpoints name it, and the turn's budget counts what ran before it. */
  function agentTurn(given: RespondOptions, key: string, records: readonly HandoffRecord[], before: ResponderMetadata | undefined): RespondOptions {
    const save = given.onCheckpoint;
    const own: RespondOptions = { ...given };
    if (save) own.onCheckpoint = (checkpoint: ResponderCheckpoint) => save({ ...checkpoint, state: teamState(key, records, before, checkpoint.state as RunCheckpoint) });
    const spent = spentOf(before);
    if (given.budget && spent.tokens > 0) {
      own.budget = remaining(given.budget, spent);
      own.spent = addSpent(given.spent ?? NOTHING_SPENT, spent);
    }
    return own;
  }

  function codeTarget(value: ReturnType<NonNullable<AgentTeamOptions["agents"][string]["handoff"]>>, from: string): { to: string; reason?: string } | undefined {
    if (value === undefined) return undefined;
    const chosen = typeof value === "string" ? { to: value } : value;
    if (typeof chosen?.to !== "string") {
      throw new TypeError(`agentResponder: agent "${from}"'s handoff must return an agent id or { to, reason }, got ${JSON.stringify(value)}`);
    }
    return chosen;
  }
}

function teamState(agent: string, handoffs: readonly HandoffRecord[], spent: ResponderMetadata | undefined, run: RunCheckpoint | null): TeamCheckpointState {
  return { team: 1, agent, handoffs: [...handoffs], ...(spent ? { spent } : {}), run };
}

/** Fails the turn before the next agent starts when what the turn spent so far reached a budget. */
function withinBudget(turn: RespondOptions, spent: ResponderMetadata | undefined): void {
  if (turn.budget) assertWithinBudget(turn.budget, spentOf(spent), turn.spent);
}

/** The turn budget left for the next agent's run, after what the agents before it spent. */
function remaining(budget: Budget, spent: Spent): Budget {
  if (!budget.turn) return budget;
  const turn = {
    ...(budget.turn.tokens !== undefined ? { tokens: Math.max(0, budget.turn.tokens - spent.tokens) } : {}),
    ...(budget.turn.usd !== undefined ? { usd: Math.max(0, budget.turn.usd - (spent.usd ?? 0)) } : {}),
  };
  return { ...budget, turn };
}

function spentOf(metadata: ResponderMetadata | undefined): Spent {
  return { tokens: metadata?.usage?.totalTokens ?? 0, usd: metadata?.cost?.usd ?? 0 };
}

/** Two runs' usage, cost and model added up (a model only when both used the same one). */
function addMetadata(a: ResponderMetadata | undefined, b: ResponderMetadata | undefined): ResponderMetadata {
  if (!a) return { ...b };
  if (!b) return { ...a };
  const out: ResponderMetadata = { ...b };
  const usage: Record<string, number> = {};
  for (const key of ["inputTokens", "outputTokens", "totalTokens"] as const) {
    const sum = (a.usage?.[key] ?? 0) + (b.usage?.[key] ?? 0);
    if (a.usage?.[key] !== undefined || b.usage?.[key] !== undefined) usage[key] = sum;
  }
  out.usage = usage;
  if (a.cost?.usd !== undefined && b.cost?.usd !== undefined) out.cost = { usd: a.cost.usd + b.cost.usd };
  else delete out.cost;
  if (!a.model || !b.model || a.model.provider !== b.model.provider || a.model.modelId !== b.model.modelId) delete out.model;
  return out;
}

/** The turn's trace once it handed off: the earlier agents' runs, then the one running now, under one group. */
function chainTree(before: readonly ResponderTraceNode[], now: ResponderTraceNode): ResponderTraceNode {
  const first = before[0] ?? now;
  return {
    kind: "group",
    id: "handoffs",
    name: "handoffs",
    status: now.status,
    ...(first.startedAt !== undefined ? { startedAt: first.startedAt } : {}),
    ...(now.endedAt !== undefined ? { endedAt: now.endedAt } : {}),
    children: [...before, now],
  };
}

/**
 * A later agent's run with its node ids prefixed (every run numbers its nodes from 1): rows stay apart and
 * stable. Snapshots share unchanged subtrees, so each node is copied once.
 */
function renamed(node: TraceNode | ResponderTraceNode, prefix: string, cache: WeakMap<object, ResponderTraceNode>): ResponderTraceNode {
  const hit = cache.get(node);
  if (hit) return hit;
  const copy = { ...node, id: prefix + node.id, children: node.children.map((child) => renamed(child, prefix, cache)) } as ResponderTraceNode;
  cache.set(node, copy);
  return copy;
}
