import type { Tool as AITool } from "ai";
import { raceAbort } from "./scheduler.js";
import type { RunSources } from "./run-sources.js";
import type { ToolSource, ToolSourceTools } from "./tool-source.js";
import type { RunContext } from "./types.js";

/** One element of a tool source in a scope: its source and what its `check` kept. */
export interface SourceEntry {
  readonly source: ToolSource<any, any, any>;
  readonly entry: unknown;
}

/** One level of a step's tool scope, outermost first: its `<Tool>`s (and sources' render-time tools), its sources' entries. */
export interface ToolLayer {
  readonly tools: Readonly<Record<string, AITool<any, any>>>;
  readonly entries: readonly SourceEntry[];
}

/** A step's tools, with the origin (the trace row's `mcp`) of each tool that lives elsewhere, by the name the model calls it. */
export interface StepTools {
  readonly tools: Record<string, AITool<any, any>>;
  readonly origins: ReadonlyMap<string, { readonly server: string; readonly tool: string }>;
}

/**
 * The tools the sources in a step's scope (and those the run serves every step) add as the step starts, merged
 * with the `<Tool>`s: the run's level first, then each scope level outermost first, an inner name winning over an
 * outer one. Two tools of one level with the same name are the source's `nameClash` error. `undefined` when no
 * source adds anything now: the step uses its scope's tools as they rendered, without waiting.
 */
export function resolveStepTools(layers: readonly ToolLayer[], sources: RunSources, ctx: RunContext, signal: AbortSignal): Promise<StepTools> | undefined {
  const consulted = new Set(sources.provided);
  for (const layer of layers) for (const { source } of layer.entries) consulted.add(source);
  const pending: { source: ToolSource<any, any, any>; sets: ReturnType<NonNullable<ToolSource["stepTools"]>> }[] = [];
  for (const source of consulted) {
    if (!source.stepTools) continue;
    const levels = [[], ...layers.map((layer) => layer.entries.filter((e) => e.source === source).map((e) => e.entry))];
    const sets = source.stepTools({ levels, session: sources.session(source), ctx, signal });
    if (sets !== undefined) pending.push({ source, sets });
  }
  if (pending.length === 0) return undefined;
  // Every source at once: a step waits for the slowest, not for their sum.
  return raceAbort(Promise.all(pending.map((p) => p.sets)), signal).then((all) => merge(layers, pending.map((p, i) => ({ source: p.source, sets: all[i]! }))));
}

function merge(layers: readonly ToolLayer[], bySource: readonly { source: ToolSource<any, any, any>; sets: readonly (readonly ToolSourceTools[])[] }[]): StepTools {
  const tools: Record<string, AITool<any, any>> = {};
  const origins = new Map<string, { readonly server: string; readonly tool: string }>();
  const levels: readonly ToolLayer["tools"][] = [{}, ...layers.map((layer) => layer.tools)];
  levels.forEach((own, index) => {
    const sets = bySource.flatMap(({ source, sets }) => (sets[index] ?? []).map((set) => ({ source, set })));
    const seen = new Map<string, string>();
    for (const name of Object.keys(own)) seen.set(name, `<Tool name="${name}">`);
    for (const { source, set } of sets) {
      for (const name of Object.keys(set.tools)) {
        const other = seen.get(name);
        if (other) throw source.nameClash?.(name, other, set.label) ?? new TypeError(`Two tools are named "${name}": ${other} and ${set.label}`);
        seen.set(name, set.label);
      }
    }
    for (const [name, value] of Object.entries(own)) {
      tools[name] = value;
      origins.delete(name);
    }
    for (const { set } of sets) {
      Object.assign(tools, set.tools);
      for (const [name, origin] of set.origins ?? []) origins.set(name, origin);
    }
  });
  return { tools, origins };
}
