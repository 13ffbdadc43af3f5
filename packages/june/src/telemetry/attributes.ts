import type { Attributes, AttributeValue } from "@opentelemetry/api";
import { isCredentialKey, redact, REDACTED, redactText } from "../redaction/redact.js";

/** An attribute as June sets it: `undefined` is left out. */
export type AttributeInput = AttributeValue | undefined;

/**
 * Attributes as they may leave the process: `undefined` dropped, every string (alone or in an array) through
 * the one redaction (`redactText`), and the value of a key that names a credential (`…headers.authorization`)
 * masked whole. `checkKeys: false` skips the key check for June's own attribute names, fixed and never a
 * credential's (the AI SDK's are checked: their names hold header names).
 */
export function safeAttributes(input: Readonly<Record<string, AttributeInput>> | Attributes | undefined, { checkKeys = true } = {}): Attributes {
  const out: Attributes = {};
  if (!input) return out;
  for (const key of Object.keys(input)) {
    const value = (input as Record<string, AttributeInput>)[key];
    if (value === undefined || value === null) continue;
    out[key] = checkKeys ? safeValue(key, value) : redactValue(value);
  }
  return out;
}

/** One attribute's value, redacted (see `safeAttributes`). */
export function safeValue(key: string, value: AttributeValue): AttributeValue {
  return isCredentialKey(lastSegment(key)) ? REDACTED : redactValue(value);
}

/** A value's strings through `redactText`. */
function redactValue(value: AttributeValue): AttributeValue {
  if (typeof value === "string") return redactText(value);
  if (Array.isArray(value)) return value.map((item) => (typeof item === "string" ? redactText(item) : item)) as AttributeValue;
  return value;
}

/**
 * Content (a prompt, a reply, a tool's input or output) as one attribute: a string as is, anything else as
 * JSON; redacted before it is cut to `maxChars`, so a cut never leaves half a credential unmasked.
 */
export function contentValue(value: unknown, maxChars: number): string {
  let text: string;
  if (typeof value === "string") text = redactText(value);
  else {
    try {
      text = JSON.stringify(redact(value)) ?? String(value);
    } catch {
      text = "[unserializable]";
    }
    text = redactText(text);
  }
  if (text.length <= maxChars) return text;
  return `${text.slice(0, maxChars)}…[${text.length - maxChars} more chars]`;
}

/** The size of a value as June reports it without its content: a string's length, or its JSON's. */
export function sizeOf(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value === "string") return value.length;
  try {
    return JSON.stringify(value)?.length;
  } catch {
    return undefined;
  }
}

/** `a.b.authorization` → `authorization`: the credential check looks at the attribute's own name. */
function lastSegment(key: string): string {
  const dot = key.lastIndexOf(".");
  return dot === -1 ? key : key.slice(dot + 1);
}
