import type { Tool as AITool } from "ai";
import { TOOL_SOURCE } from "./tool-source-mark.js";
import type { RunContext } from "./types.js";

export { TOOL_SOURCE, type ToolSourceProvider } from "./tool-source-mark.js";

/**
 * A kind of element that adds tools to the steps it serves, placed like a `<Tool>` (a child of `<Agent>`: its
 * steps; of `<Step>`: that step alone). `check` runs as the workflow renders; `tools` gives the tools known from
 * the props alone; `stepTools` gives those known only as a step starts (a server to connect), with a per-run
 * session `open` makes on first use and `close` ends as the run ends.
 *
 * @typeParam Props The element's props.
 * @typeParam Entry What `check` keeps of them (default: the props).
 * @typeParam Session What one run keeps for the source (a connection, a cache); made by `open`.
 */
export interface ToolSource<Props = any, Entry = Props, Session = undefined> {
  /** The element's name, as errors show it (`"McpTools"`: `<McpTools>: needs a server`). */
  readonly name: string;
  /**
   * Checks one element's props (its children aside) when the workflow renders, and returns what the plan keeps.
   * Throw an `Error` naming what is wrong: the render fails with a `RenderError` naming the element.
   */
  check(props: Props): Entry;
  /** How errors name one element, from its props (`<McpTools name="files">`). Default: `<name>`. */
  label?(props: Props): string | undefined;
  /**
   * The tools known when the workflow renders, by name: they join the scope as `<Tool>`s do (the same name twice in
   * one scope is a `RenderError`).
   */
  tools?(entry: Entry): Record<string, AITool<any, any>>;
  /** Makes the run's session, once, when a step of the run first needs the source. */
  open?(run: ToolSourceRun): Session;
  /** Ends the run's session as the run ends, before it settles (a rejection is ignored). */
  close?(session: Session): void | Promise<void>;
  /**
   * The tools a step gets from the entries in its scope, known as the step starts: one list of sets per level of
   * `step.levels`, in the same order. Return `undefined` (not a promise) when there is nothing to add: the step
   * then starts without waiting.
   */
  stepTools?(step: ToolSourceStep<Entry, Session>): readonly (readonly ToolSourceTools[])[] | undefined | Promise<readonly (readonly ToolSourceTools[])[]>;
  /** The error for two tools of one level with one name (`first`, `second`: a `<Tool name>` or a set's `label`). */
  nameClash?(name: string, first: string, second: string): Error;
}

/** What a source's `open` gets: the run, and the values serving this source for whole runs (innermost first). */
export interface ToolSourceRun {
  readonly runId: string;
  /** Values marked with this source that are in effect for the run (`start({ mcp })`, `mcp.run(fn)`), innermost first. */
  readonly provided: readonly object[];
}

/** What a source's `stepTools` gets for one step. */
export interface ToolSourceStep<Entry = unknown, Session = undefined> {
  /**
   * The source's entries by level of the step's scope: first the run's (always empty: a session may add tools
   * there, for every step), then the scopes around the step outermost first (the run's top, each `Agent`), then
   * the step's own.
   */
  readonly levels: readonly (readonly Entry[])[];
  /** The run's session (`open`'s value), or `undefined` when the source has no `open`. */
  readonly session: Session;
  /** The step's context: the run's id, the results so far, the step's signal. */
  readonly ctx: RunContext;
  readonly signal: AbortSignal;
}

/** Tools a source adds at one level of a step's scope. An inner level's name wins over an outer one's. */
export interface ToolSourceTools {
  readonly tools: Readonly<Record<string, AITool<any, any>>>;
  /** How a name clash names these tools (`the MCP server "files"'s`). */
  readonly label: string;
  /** For tools that live elsewhere: the trace row's `mcp` (the server, the tool's name there), by tool name. */
  readonly origins?: ReadonlyMap<string, { readonly server: string; readonly tool: string }>;
}

/** The element type `toolSource()` makes: a component that renders nothing, marked with its source. */
export type ToolSourceComponent<Props> = ((props: Props) => null) & { readonly [TOOL_SOURCE]: ToolSource<Props, any, any> };

/**
 * Makes an element type from a tool source's definition: `<MySource ...props />` inside an `<Agent>` or a
 * `<Step>` adds the source's tools to the steps it serves. See docs/workflows.md, "Tool sources".
 *
 * @example
 * const Clock = toolSource<{ zone?: string }>({
 *   name: "Clock",
 *   check: (props) => props,
 *   tools: ({ zone }) => ({ now: tool({ inputSchema: jsonSchema({ type: "object" }), execute: async () => new Date().toLocaleString("en", { timeZone: zone }) }) }),
 * });
 */
export function toolSource<Props, Entry = Props, Session = undefined>(definition: ToolSource<Props, Entry, Session>): ToolSourceComponent<Props> {
  if (typeof definition !== "object" || definition === null) throw new TypeError("toolSource(definition): definition must be an object");
  if (typeof definition.name !== "string" || definition.name === "") throw new TypeError("toolSource(definition): `name` must be a non-empty string");
  if (typeof definition.check !== "function") throw new TypeError(`toolSource(${definition.name}): \`check\` must be a function of the props`);
  if (definition.tools === undefined && definition.stepTools === undefined) {
    throw new TypeError(`toolSource(${definition.name}): give \`tools\` (known from the props) or \`stepTools\` (known as a step starts)`);
  }
  for (const key of ["label", "tools", "open", "close", "stepTools", "nameClash"] as const) {
    if (definition[key] !== undefined && typeof definition[key] !== "function") throw new TypeError(`toolSource(${definition.name}): \`${key}\` must be a function`);
  }
  const component = (_props: Props): null => null;
  Object.defineProperty(component, "name", { value: definition.name });
  return Object.assign(component, { [TOOL_SOURCE]: Object.freeze({ ...definition }) as ToolSource<Props, any, any> });
}

/** The source a value is marked with (an element type from `toolSource()`, or a value serving it for runs). */
export function sourceOf(value: unknown): ToolSource<any, any, any> | undefined {
  if ((typeof value !== "function" && typeof value !== "object") || value === null) return undefined;
  const source = (value as { [TOOL_SOURCE]?: unknown })[TOOL_SOURCE];
  return typeof source === "object" && source !== null ? (source as ToolSource<any, any, any>) : undefined;
}
