import { asSchema, type Tool as AITool } from "ai";

/**
 * What is wrong with `input` for `tool`'s input schema, or `undefined` when it fits: what an approval's edited
 * input is checked with before the tool may run with it. The tool's own schema decides, as the AI SDK's
 * `safeValidateTypes` does: a schema that validates (zod through `zodSchema` or as it is, any Standard Schema,
 * a `jsonSchema()` given a `validate`) checks the input itself; a plain JSON Schema is checked by Ajv, every
 * keyword enforced (`pattern`, `maxLength`, `minimum`, `anyOf`, `minItems`, ...). A schema that cannot be
 * checked refuses the input: an edit never runs unchecked.
 */
export async function schemaIssues(tool: AITool<any, any> | undefined, input: unknown): Promise<string | undefined> {
  const given = tool?.inputSchema as unknown;
  if (given === undefined || given === null) return undefined;
  let schema: ReturnType<typeof asSchema>;
  try {
    schema = asSchema(given as never);
    if (typeof schema.validate === "function") {
      const result = await schema.validate(input);
      return result.success ? undefined : errorIssues(result.error);
    }
    return await jsonSchemaIssues(await schema.jsonSchema, input);
  } catch (error) {
    return `its input schema could not check it (${error instanceof Error ? error.message : String(error)})`;
  }
}

/** A validation error as `path: message; ...` (zod's and Standard Schema's issues), else its message. */
function errorIssues(error: unknown): string {
  const issues = (error as { issues?: readonly { message: string; path?: readonly unknown[] }[] } | undefined)?.issues;
  if (!Array.isArray(issues) || issues.length === 0) return error instanceof Error ? error.message : "refused by its schema";
  return issues
    .map((issue) => {
      const path = ["input", ...(issue.path ?? []).map((key: unknown) => (typeof key === "object" && key !== null && "key" in key ? (key as { key: unknown }).key : key))];
      return `${path.map(String).join(".")}: ${issue.message}`;
    })
    .join("; ");
}

type Validate = ((value: unknown) => boolean) & { errors?: readonly { instancePath: string; message?: string }[] | null };

/** Compiled validators by schema object: a schema let go takes its validator with it. */
const compiled = new WeakMap<object, Validate>();

async function jsonSchemaIssues(schema: unknown, input: unknown): Promise<string | undefined> {
  if (typeof schema !== "object" || schema === null) return undefined;
  let validate = compiled.get(schema);
  if (!validate) {
    // Loaded on the first edit of a tool with a plain JSON Schema: a chat that never edits never loads it.
    const draft2020 = String((schema as { $schema?: unknown }).$schema ?? "").includes("2020-12");
    const module = (draft2020 ? await import("ajv/dist/2020.js") : await import("ajv")) as unknown as { default: AjvClass | { default: AjvClass } };
    const Ajv = "default" in module.default ? module.default.default : module.default;
    // One instance per schema, so that nothing a long-lived server compiles outlives its schema.
    validate = new Ajv({ allErrors: true, strict: false }).compile(schema);
    compiled.set(schema, validate);
  }
  if (validate(input)) return undefined;
  return (validate.errors ?? []).map((error) => `input${error.instancePath.replaceAll("/", ".")} ${error.message ?? "is refused"}`).join("; ") || "refused by its schema";
}

type AjvClass = new (options: { allErrors: boolean; strict: boolean }) => { compile(schema: object): Validate };
