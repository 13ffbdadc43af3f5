import type { GuardrailVerdict, Guardrails, Trip } from "./types.js";

/**
 * Runs every check at once and answers with the first trip in the order the guardrails were given, or
 * undefined when all passed. A check that throws fails the turn or call (a broken check must not pass).
 */
export async function firstTrip<A>(guardrails: readonly { name: string; check(args: A): GuardrailVerdict | PromiseLike<GuardrailVerdict> }[], args: A): Promise<Trip | undefined> {
  if (guardrails.length === 0) return undefined;
  const verdicts = await Promise.all(guardrails.map((guardrail) => guardrail.check(args)));
  for (let i = 0; i < verdicts.length; i++) {
    const verdict = verdicts[i];
    if (verdict === undefined || verdict === null || verdict === false || verdict === "") continue;
    if (typeof verdict !== "string") {
      throw new TypeError(`guardrail "${guardrails[i]!.name}": check must return nothing to pass or a string reason to trip, got ${typeof verdict}`);
    }
    return { name: guardrails[i]!.name, reason: verdict };
  }
  return undefined;
}

const STREAMS: ReadonlySet<unknown> = new Set([undefined, "hold", "end"]);
const RUNS: ReadonlySet<unknown> = new Set([undefined, "before", "beside"]);

/** Checks a `guardrails` option; `where` names it in the error (`createChat({ guardrails })`). */
export function validateGuardrails(value: unknown, where: string): Guardrails | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "object" || value === null) throw new TypeError(`${where}: guardrails must be an object of { input?, output?, tool? }`);
  for (const key of Object.keys(value)) {
    if (key !== "input" && key !== "output" && key !== "tool") throw new TypeError(`${where}: unknown guardrail list "${key}" (use input, output or tool)`);
    const list = (value as Record<string, unknown>)[key];
    if (list === undefined) continue;
    if (!Array.isArray(list)) throw new TypeError(`${where}: guardrails.${key} must be a list of { name, check }`);
    list.forEach((item: unknown, i) => {
      const g = item as { name?: unknown; check?: unknown; stream?: unknown; run?: unknown } | null;
      if (typeof g !== "object" || g === null || typeof g.name !== "string" || g.name === "" || typeof g.check !== "function") {
        throw new TypeError(`${where}: guardrails.${key}[${i}] must be { name: string, check: function }`);
      }
      if (key === "output" && !STREAMS.has(g.stream)) throw new TypeError(`${where}: guardrails.output[${i}] ("${g.name}"): stream must be "hold" or "end", got ${JSON.stringify(g.stream)}`);
      if (key === "input" && !RUNS.has(g.run)) throw new TypeError(`${where}: guardrails.input[${i}] ("${g.name}"): run must be "before" or "beside", got ${JSON.stringify(g.run)}`);
    });
  }
  return value as Guardrails;
}
