import { redact, redactText } from "./redact.js";

/** The marker put where an excerpt was cut. */
export const CUT_MARKER = "…";

/** Default length of a tool input or output excerpt. */
export const DEFAULT_EXCERPT_CHARS = 300;

/**
 * Cuts `text` to at most `maxChars` characters, ending in `…` where it was cut. Never splits a surrogate
 * pair.
 */
export function truncate(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  let end = Math.max(0, maxChars - CUT_MARKER.length);
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return text.slice(0, end) + CUT_MARKER;
}

/**
 * A short, redacted, one-string excerpt of any value (a tool input or output): strings as they are, other
 * values as JSON. At most `maxChars` characters, with `…` where it was cut. Only a bounded prefix of a
 * large value is ever looked at, so excerpting a huge output each snapshot stays cheap.
 */
export function excerpt(value: unknown, maxChars: number = DEFAULT_EXCERPT_CHARS): string {
  const bounded = boundedCopy(value, maxChars);
  const safe = redact(bounded);
  let text: string;
  if (typeof safe === "string") text = safe;
  else if (safe === undefined) text = "undefined";
  else {
    try {
      text = JSON.stringify(safe, (_key, v: unknown) => (typeof v === "bigint" ? v.toString() : v)) ?? String(safe);
    } catch {
      text = "[unserializable]";
    }
  }
  // Patterns that only show once the value is one string (a header pair in an array, say).
  return truncate(redactText(text), maxChars);
}

interface CopyState {
  nodes: number;
  ancestors: WeakSet<object>;
}

const MAX_NODES = 400;
const MAX_DEPTH = 8;

/**
 * A copy of `value` small enough to excerpt in `maxChars`: strings cut a little past `maxChars` (so a
 * credential straddling the cut still matches a pattern up to the point any excerpt can show), arrays
 * and objects cut to the entries that could fit, nesting and total size bounded.
 */
function boundedCopy(value: unknown, maxChars: number): unknown {
  const state: CopyState = { nodes: 0, ancestors: new WeakSet() };
  return copy(value, maxChars, 0, state);
}

function copy(value: unknown, maxChars: number, depth: number, state: CopyState): unknown {
  if (typeof value === "string") return value.length > maxChars + 512 ? value.slice(0, maxChars + 512) : value;
  if (typeof value !== "object" || value === null) return value;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? "Invalid Date" : value.toISOString();
  if (state.ancestors.has(value)) return "[circular]";
  if (depth >= MAX_DEPTH || state.nodes >= MAX_NODES) return CUT_MARKER;
  state.nodes += 1;
  // Each entry costs at least a couple of characters, so more than maxChars entries can never show.
  const maxEntries = Math.max(1, Math.ceil(maxChars / 2));
  state.ancestors.add(value);
  try {
    if (Array.isArray(value)) {
      const out = value.slice(0, maxEntries).map((item) => copy(item, maxChars, depth + 1, state));
      if (value.length > maxEntries) out.push(CUT_MARKER);
      return out;
    }
    if (value instanceof Error) {
      return { name: value.name, message: copy(value.message, maxChars, depth + 1, state) };
    }
    if (value instanceof Map) {
      const out: Record<string, unknown> = {};
      let n = 0;
      for (const [key, item] of value) {
        if (n++ >= maxEntries) break;
        out[String(key)] = copy(item, maxChars, depth + 1, state);
      }
      return out;
    }
    if (value instanceof Set) {
      return [...value].slice(0, maxEntries).map((item) => copy(item, maxChars, depth + 1, state));
    }
    if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) {
      return `[${value.constructor.name} ${value.byteLength} bytes]`;
    }
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === "function") {
      try {
        const json: unknown = toJSON.call(value);
        if (json !== value) return copy(json, maxChars, depth, state);
      } catch {
        return "[unserializable]";
      }
    }
    const out: Record<string, unknown> = {};
    let n = 0;
    for (const key in value) {
      if (!Object.prototype.hasOwnProperty.call(value, key)) continue;
      if (n++ >= maxEntries) {
        out[CUT_MARKER] = CUT_MARKER;
        break;
      }
      out[key] = copy((value as Record<string, unknown>)[key], maxChars, depth + 1, state);
    }
    return out;
  } finally {
    state.ancestors.delete(value);
  }
}
