import type { Tool as AITool } from "ai";

/**
 * What is wrong with `input` for `tool`'s input schema, or `undefined` when it fits: what an approval's edited
 * input is checked with before the tool may run with it. Synchronous, so a refused edit leaves the request
 * pending at once: a Standard Schema (zod, valibot, ...) validates itself, an AI SDK `jsonSchema()` with a
 * `validate` uses it, and a plain JSON Schema is checked here (type, required, properties,
 * additionalProperties, enum, const, items). The input must be JSON (it is stored and sent to the model).
 */
export function toolInputIssues(tool: AITool<any, any> | undefined, input: unknown): string | undefined {
  const notJson = jsonIssue(input, "input");
  if (notJson) return notJson;
  const schema = tool?.inputSchema as unknown;
  if (schema === undefined || schema === null) return undefined;
  if (typeof schema === "object" && "~standard" in schema) {
    const result = (schema as { "~standard": { validate: (value: unknown) => unknown } })["~standard"].validate(input);
    if (!isThenable(result)) return standardIssues(result);
  }
  if (typeof schema === "object" && SCHEMA in schema) {
    const aiSchema = schema as unknown as { validate?: (value: unknown) => unknown; jsonSchema: unknown };
    if (typeof aiSchema.validate === "function") {
      const result = aiSchema.validate(input);
      if (!isThenable(result)) {
        const r = result as { success: boolean; error?: { message?: string } };
        return r.success ? undefined : (r.error?.message ?? "refused by its schema");
      }
    }
    const json = aiSchema.jsonSchema;
    if (!isThenable(json)) return jsonSchemaIssue(json, input, "input");
  }
  return undefined;
}

const SCHEMA = Symbol.for("vercel.ai.schema");

function isThenable(value: unknown): boolean {
  return typeof value === "object" && value !== null && typeof (value as { then?: unknown }).then === "function";
}

function standardIssues(result: unknown): string | undefined {
  const issues = (result as { issues?: readonly { message: string; path?: readonly unknown[] }[] }).issues;
  if (!issues || issues.length === 0) return undefined;
  return issues
    .map((issue) => {
      const path = (issue.path ?? []).map((key) => (typeof key === "object" && key !== null && "key" in key ? (key as { key: unknown }).key : key)).join(".");
      return path ? `${path}: ${issue.message}` : issue.message;
    })
    .join("; ");
}

function jsonIssue(value: unknown, at: string): string | undefined {
  switch (typeof value) {
    case "string":
    case "boolean":
      return undefined;
    case "number":
      return Number.isFinite(value) ? undefined : `${at} must be a finite number`;
    case "object": {
      if (value === null) return undefined;
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) {
          const issue = jsonIssue(value[i], `${at}[${i}]`);
          if (issue) return issue;
        }
        return undefined;
      }
      const proto = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) return `${at} must be plain JSON`;
      for (const [key, child] of Object.entries(value)) {
        if (child === undefined) continue;
        const issue = jsonIssue(child, `${at}.${key}`);
        if (issue) return issue;
      }
      return undefined;
    }
    default:
      return `${at} must be JSON, got ${typeof value}`;
  }
}

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  enum?: unknown[];
  const?: unknown;
  items?: JsonSchema;
};

function typeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

function jsonSchemaIssue(schema: unknown, value: unknown, at: string): string | undefined {
  if (typeof schema !== "object" || schema === null) return undefined;
  const s = schema as JsonSchema;
  if (s.type !== undefined) {
    const types = Array.isArray(s.type) ? s.type : [s.type];
    const actual = typeOf(value);
    const fits = types.some((type) => type === actual || (type === "integer" && Number.isInteger(value)) || (type === "number" && actual === "number"));
    if (!fits) return `${at} must be ${types.join(" or ")}, got ${actual}`;
  }
  if (s.enum !== undefined && !s.enum.some((option) => JSON.stringify(option) === JSON.stringify(value))) {
    return `${at} must be one of ${s.enum.map((option) => JSON.stringify(option)).join(", ")}`;
  }
  if (s.const !== undefined && JSON.stringify(s.const) !== JSON.stringify(value)) return `${at} must be ${JSON.stringify(s.const)}`;
  if (typeOf(value) === "object") {
    const object = value as Record<string, unknown>;
    for (const key of s.required ?? []) if (object[key] === undefined) return `${at}.${key} is required`;
    for (const [key, child] of Object.entries(object)) {
      const property = s.properties?.[key];
      if (property !== undefined) {
        const issue = jsonSchemaIssue(property, child, `${at}.${key}`);
        if (issue) return issue;
      } else if (s.additionalProperties === false) return `${at}.${key} is not allowed`;
      else if (typeof s.additionalProperties === "object") {
        const issue = jsonSchemaIssue(s.additionalProperties, child, `${at}.${key}`);
        if (issue) return issue;
      }
    }
  }
  if (Array.isArray(value) && s.items !== undefined) {
    for (let i = 0; i < value.length; i++) {
      const issue = jsonSchemaIssue(s.items, value[i], `${at}[${i}]`);
      if (issue) return issue;
    }
  }
  return undefined;
}
