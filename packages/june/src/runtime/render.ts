import type { Guardrails } from "../guardrails/types.js";
import { validateGuardrails } from "../guardrails/check.js";
import type { LanguageModel, Tool as AITool } from "ai";
import type { ToolApprovalPolicy } from "./tool-approval.js";
import { Fragment, isElement, type JuneElement } from "../jsx/element.js";
import { Agent, Catch, Parallel, Step, Tool, type AgentProps, type AgentToolProps, type StepProps, type WorkflowNode } from "./components.js";
import { agentToolValue } from "./agent-tool.js";
import { sourceOf, type ToolSource } from "./tool-source.js";
import { RenderError } from "./errors.js";
import { pickCallSettings } from "./call-settings.js";
import type { CallSettings, RunContext } from "./types.js";
import type { SourceEntry, ToolLayer } from "./step-tools.js";

/** What an `Agent` sets for the steps below it; a nested scope inherits what it does not set. */
export interface Scope {
  readonly parent: Scope | undefined;
  readonly model?: LanguageModel;
  readonly instructions?: string;
  readonly toolApproval?: ToolApprovalPolicy;
  readonly guardrails?: Guardrails;
  readonly settings: CallSettings;
  /** This scope's own tools, filled while its subtree renders (so sibling order does not matter). */
  readonly tools: Record<string, AITool<any, any>>;
  /** This scope's own tool-source elements (`<McpTools>`), filled like `tools`; their tools come as a step starts. */
  readonly entries: SourceEntry[];
}

/** A rendered, validated workflow node: what the executor runs. */
export type PlanNode = AgentPlan | SequencePlan | ParallelPlan | CatchPlan | StepPlan | RenderPlan;

export interface AgentPlan {
  readonly kind: "agent";
  readonly name: string;
  readonly scope: Scope;
  readonly children: PlanNode[];
}
export interface SequencePlan {
  readonly kind: "sequence";
  readonly children: PlanNode[];
}
export interface ParallelPlan {
  readonly kind: "parallel";
  readonly concurrency: number | undefined;
  /** One branch per child, each run as one unit. */
  readonly children: PlanNode[];
}
export interface CatchPlan {
  readonly kind: "catch";
  readonly scope: Scope;
  readonly children: PlanNode[];
  readonly fallback: PlanNode[] | ((error: unknown) => WorkflowNode);
}
export interface StepPlan {
  readonly kind: "step";
  readonly id: string;
  readonly props: StepProps;
  readonly scope: Scope;
  /** Tools placed inside the `Step`: they serve it alone. */
  readonly tools: Record<string, AITool<any, any>>;
  /** Tool-source elements placed inside the `Step` whose tools come as it starts (`<McpTools>`). */
  readonly entries: SourceEntry[];
}
export interface RenderPlan {
  readonly kind: "render";
  readonly fn: (ctx: RunContext) => WorkflowNode | Promise<WorkflowNode>;
  readonly scope: Scope;
}


/** The scope at the top of a run: no model, no tools. */
export function rootScope(): Scope {
  return { parent: undefined, settings: {}, tools: {}, entries: [] };
}

/** A scope below `parent` that sets nothing itself (where a render function's output renders). */
export function childScope(parent: Scope): Scope {
  return { parent, settings: {}, tools: {}, entries: [] };
}

/**
 * Renders a workflow node into plan nodes, calling function components and validating as it goes. Step ids
 * are registered in `stepIds`, which spans the run, so render functions cannot reuse an id.
 *
 * @throws RenderError naming the element at fault.
 */
export function renderWorkflow(node: unknown, scope: Scope, stepIds: Set<string>): PlanNode[] {
  const out: PlanNode[] = [];
  renderInto(node, scope, stepIds, out);
  return out;
}

function renderInto(node: unknown, scope: Scope, ids: Set<string>, out: PlanNode[]): void {
  if (node === null || node === undefined || typeof node === "boolean") return;
  if (Array.isArray(node)) {
    for (const child of node) renderInto(child, scope, ids, out);
    return;
  }
  if (typeof node === "function") {
    out.push({ kind: "render", fn: node as RenderPlan["fn"], scope });
    return;
  }
  if (typeof node === "string" || typeof node === "number") {
    if (String(node).trim() === "") return;
    throw new RenderError(`Text ${JSON.stringify(String(node).slice(0, 40))} is not a workflow element`, { element: "text" });
  }
  if (!isElement(node)) {
    throw new RenderError(`${describeValue(node)} is not a workflow element`, { element: describeValue(node) });
  }
  renderElement(node, scope, ids, out);
}

function renderElement(element: JuneElement, scope: Scope, ids: Set<string>, out: PlanNode[]): void {
  const { type, props } = element;
  const label = elementLabel(element);
  const fail = (problem: string, cause?: unknown): never => {
    throw new RenderError(`${label}: ${problem}`, { element: label, cause });
  };
  if (type === Fragment) return renderInto(props.children, scope, ids, out);
  if (type === Agent) {
    const p = props as unknown as AgentProps;
    if (p.model !== undefined && !isModel(p.model)) fail("`model` is not an AI SDK LanguageModel");
    const settings = pickCallSettings(props);
    const agentScope: Scope = { parent: scope, model: p.model, instructions: p.instructions, settings, tools: {}, entries: [] };
    if (p.toolApproval !== undefined) Object.assign(agentScope, { toolApproval: checkToolApproval(p.toolApproval, fail) });
    if (p.guardrails !== undefined) Object.assign(agentScope, { guardrails: checkGuardrails(p.guardrails, fail) });
    const children = renderWorkflow(p.children, agentScope, ids);
    out.push({ kind: "agent", name: p.name ?? "Agent", scope: agentScope, children });
    return;
  }
  if (type === Step) return void out.push(renderStep(element, scope, ids, fail));
  if (type === Tool) {
    const [name, value] = checkTool(element, fail);
    if (Object.hasOwn(scope.tools, name)) fail(`a tool named "${name}" is already in this scope`);
    scope.tools[name] = value;
    return;
  }
  const source = sourceOf(type);
  if (source) return placeSource(element, source, scope, (name) => `a tool named "${name}" is already in this scope`, fail);
  if (type === Parallel) {
    const concurrency = props.concurrency as number | undefined;
    if (concurrency !== undefined && (!Number.isInteger(concurrency) || concurrency < 1)) {
      fail("`concurrency` must be a positive integer");
    }
    const branches: PlanNode[] = [];
    for (const child of flatten(props.children)) {
      const rendered = renderWorkflow(child, scope, ids);
      if (rendered.length === 1) branches.push(rendered[0]!);
      else if (rendered.length > 1) branches.push({ kind: "sequence", children: rendered });
    }
    out.push({ kind: "parallel", concurrency, children: branches });
    return;
  }
  if (type === Catch) {
    const children = renderWorkflow(props.children, scope, ids);
    const fallback = props.fallback;
    out.push({
      kind: "catch",
      scope,
      children,
      fallback: typeof fallback === "function" ? (fallback as CatchPlan["fallback"]) : renderWorkflow(fallback, scope, ids),
    });
    return;
  }
  if (typeof type === "function") {
    let rendered: unknown;
    try {
      rendered = type(props);
    } catch (error) {
      fail(`the component threw: ${error instanceof Error ? error.message : String(error)}`, error);
    }
    if (isThenable(rendered)) fail("a component must return synchronously (return a render function to wait)");
    return renderInto(rendered, scope, ids, out);
  }
  fail("unknown element type (June has no intrinsic elements; use Agent, Step, Tool, McpTools, Parallel, Catch or a component)");
}

function renderStep(element: JuneElement, scope: Scope, ids: Set<string>, fail: (problem: string) => never): StepPlan {
  const p = element.props as unknown as StepProps;
  if (typeof p.id !== "string" || p.id === "") fail("`id` must be a non-empty string");
  if (ids.has(p.id)) fail(`duplicate step id "${p.id}"`);
  if (p.run !== undefined && typeof p.run !== "function") fail("`run` must be a function");
  if (p.run !== undefined && p.prompt !== undefined) fail("give `prompt` or `run`, not both");
  if (p.run === undefined && p.prompt === undefined) fail("needs a `prompt` (or a `run` function)");
  if (p.run === undefined && lookup(scope, (s) => s.model) === undefined) {
    fail("no model in scope (place the Step inside an <Agent model={...}>)");
  }
  if (p.maxSteps !== undefined && (!Number.isInteger(p.maxSteps) || p.maxSteps < 1)) {
    fail("`maxSteps` must be a positive integer");
  }
  if (p.timeout !== undefined && !(typeof p.timeout === "number" && p.timeout > 0)) fail("`timeout` must be a positive number");
  if (p.toolApproval !== undefined) checkToolApproval(p.toolApproval, fail);
  if (p.guardrails !== undefined) checkGuardrails(p.guardrails, fail);
  const own = { tools: {} as Record<string, AITool<any, any>>, entries: [] as SourceEntry[] };
  const tools = own.tools;
  for (const child of flattenFragments(p.children)) {
    const source = isElement(child) ? sourceOf(child.type) : undefined;
    if (source) {
      placeSource(child as JuneElement, source, own, (name) => `two tools named "${name}"`, fail, (problem, cause) => {
        throw new RenderError(`${elementLabel(child as JuneElement)}: ${problem}`, { element: elementLabel(child as JuneElement), cause });
      });
      continue;
    }
    if (!isElement(child) || child.type !== Tool) {
      fail(`a Step's only children are <Tool>s and tool sources (<McpTools>, <AskUser>), found ${isElement(child) ? elementLabel(child) : describeValue(child)}`);
    }
    const [name, value] = checkTool(child as JuneElement, (problem) => {
      const label = elementLabel(child as JuneElement);
      throw new RenderError(`${label}: ${problem}`, { element: label });
    });
    if (Object.hasOwn(tools, name)) fail(`two tools named "${name}"`);
    tools[name] = value;
  }
  ids.add(p.id);
  return { kind: "step", id: p.id, props: p, scope, tools, entries: own.entries };
}

/**
 * A tool source's element, checked by its source: its render-time tools join `into.tools` (a name already there
 * is `clash(name)`, failed by `fail`), and the entry joins `into.entries` when the source has tools to add as a
 * step starts. A problem with the element's own props fails with `failProps` (the element's label).
 */
function placeSource(
  element: JuneElement,
  source: ToolSource<any, any, any>,
  into: { tools: Record<string, AITool<any, any>>; entries: SourceEntry[] },
  clash: (name: string) => string,
  fail: (problem: string, cause?: unknown) => never,
  failProps: (problem: string, cause?: unknown) => never = fail,
): void {
  const { children: _children, ...props } = element.props as Record<string, unknown>;
  let entry: unknown;
  try {
    entry = source.check(props);
  } catch (error) {
    failProps(error instanceof Error ? error.message : String(error), error);
  }
  for (const [name, value] of Object.entries(source.tools?.(entry) ?? {})) {
    if (Object.hasOwn(into.tools, name)) fail(clash(name));
    into.tools[name] = value;
  }
  if (source.stepTools) into.entries.push({ source, entry });
}

function checkTool(element: JuneElement, fail: (problem: string) => never): [string, AITool<any, any>] {
  const { name, value, agent } = element.props as { name?: unknown; value?: unknown; agent?: unknown };
  if (typeof name !== "string" || name === "") fail("`name` must be a non-empty string");
  if (agent !== undefined) {
    if (value !== undefined) fail("give `value` (an AI SDK tool) or `agent` (a workflow), not both");
    return [name as string, checkAgentTool(element.props as Record<string, unknown>, fail)];
  }
  if (value === null || typeof value !== "object") fail("`value` must be an AI SDK tool() (or give `agent`, a function returning a workflow)");
  return [name as string, value as AITool<any, any>];
}

/** A `<Tool agent>`: `agent` a function, `inputSchema` a schema, `result` a function when given. */
function checkAgentTool(props: Record<string, unknown>, fail: (problem: string) => never): AITool<any, any> {
  if (typeof props.agent !== "function") fail("`agent` must be a function of the call's input that returns a workflow");
  if (props.inputSchema === null || (typeof props.inputSchema !== "object" && typeof props.inputSchema !== "function")) {
    fail("`inputSchema` must be a schema (zod, jsonSchema(), Standard Schema) for the call's input");
  }
  if (props.result !== undefined && typeof props.result !== "function") fail("`result` must be a function of the finished sub-run");
  if (props.description !== undefined && typeof props.description !== "string") fail("`description` must be a string");
  return agentToolValue(props as unknown as AgentToolProps);
}

/** The nearest value a scope chain sets. */
export function lookup<T>(scope: Scope | undefined, pick: (scope: Scope) => T | undefined): T | undefined {
  for (let s = scope; s; s = s.parent) {
    const value = pick(s);
    if (value !== undefined) return value;
  }
  return undefined;
}

/** Call settings merged down the chain: a nested Agent overrides what it sets. */
export function resolveSettings(scope: Scope): CallSettings {
  const chain: Scope[] = [];
  for (let s: Scope | undefined = scope; s; s = s.parent) chain.unshift(s);
  return Object.assign({}, ...chain.map((s) => s.settings)) as CallSettings;
}

/** The tools of a step's scope chain, outermost first, then its own: `<Tool>`s and tool-source entries by level. */
export function toolLayers(scope: Scope, own: ToolLayer): ToolLayer[] {
  const chain: ToolLayer[] = [];
  for (let s: Scope | undefined = scope; s; s = s.parent) chain.unshift({ tools: s.tools, entries: s.entries });
  chain.push(own);
  return chain;
}

/** The tools serving a step: its scope chain's (inner names win), then its own. */
export function resolveTools(scope: Scope, own: Record<string, AITool<any, any>>): Record<string, AITool<any, any>> {
  const chain: Scope[] = [];
  for (let s: Scope | undefined = scope; s; s = s.parent) chain.unshift(s);
  return Object.assign({}, ...chain.map((s) => s.tools), own) as Record<string, AITool<any, any>>;
}

function flatten(node: unknown): unknown[] {
  return Array.isArray(node) ? node.flatMap(flatten) : [node];
}

function flattenFragments(node: unknown): unknown[] {
  return flatten(node).flatMap((child) => {
    if (child === null || child === undefined || typeof child === "boolean") return [];
    if (isElement(child) && child.type === Fragment) return flattenFragments(child.props.children);
    return [child];
  });
}

function isModel(model: unknown): boolean {
  return typeof model === "string" || (typeof model === "object" && model !== null && "doStream" in model);
}

function isThenable(value: unknown): boolean {
  return typeof value === "object" && value !== null && typeof (value as { then?: unknown }).then === "function";
}

/** `<Step id="draft">`, `<Tool name="search">`, `<MyComponent>`, `<div>`. */
export function elementLabel(element: JuneElement): string {
  const { type, props } = element;
  const name =
    typeof type === "function" ? type.name || "anonymous" : typeof type === "symbol" ? type.toString() : String(type);
  if (type === Step && typeof props.id === "string") return `<Step id="${props.id}">`;
  if (type === Tool && typeof props.name === "string") return `<Tool name="${props.name}">`;
  const source = sourceOf(type);
  return (source ? source.label?.(props) : undefined) ?? `<${name}>`;
}

function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (typeof value === "object") return `an object (${Object.prototype.toString.call(value)})`;
  return `a ${typeof value}`;
}

/** `guardrails` must be `{ input?, output?, tool? }` lists of `{ name, check }` (checked when the workflow renders). */
function checkGuardrails(guardrails: unknown, fail: (problem: string) => never): Guardrails {
  try {
    return validateGuardrails(guardrails, "guardrails")!;
  } catch (error) {
    return fail((error as Error).message.replace(/^guardrails: /, ""));
  }
}

/** `toolApproval` must be an object of rules by tool name or a function (checked when the workflow renders). */
function checkToolApproval(policy: unknown, fail: (problem: string) => never): ToolApprovalPolicy {
  if (typeof policy === "function" || (typeof policy === "object" && policy !== null && !Array.isArray(policy))) return policy as ToolApprovalPolicy;
  return fail("`toolApproval` must be an object of rules by tool name, or a function");
}
