import { serverProblem } from "./connect.js";

/** What is wrong with `<McpTools>` options, or `undefined` when they are fine. */
export function checkMcpToolsOptions(options: unknown): string | undefined {
  if (typeof options !== "object" || options === null) return "options must be an object with `server`";
  const o = options as Record<string, unknown>;
  if (o.server === undefined) return "needs a `server` (a stdio { command, args }, a Streamable HTTP URL or an @ai-sdk/mcp client)";
  const server = serverProblem(o.server);
  if (server) return server;
  if (o.name !== undefined && (typeof o.name !== "string" || o.name === "")) return "`name` must be a non-empty string";
  if (o.prefix !== undefined && typeof o.prefix !== "string") return "`prefix` must be a string";
  for (const key of ["include", "exclude"] as const) {
    const filter = o[key];
    if (filter !== undefined && typeof filter !== "function" && !isStringArray(filter)) {
      return `\`${key}\` must be an array of tool names or a function of the tool`;
    }
  }
  const policy = o.needsApproval;
  if (policy !== undefined && typeof policy !== "boolean" && typeof policy !== "function" && !isStringArray(policy)) {
    return "`needsApproval` must be true, false, an array of tool names or a function of the tool and its input";
  }
  for (const key of ["timeout", "maxResultBytes"] as const) {
    const value = o[key];
    if (value !== undefined && !(typeof value === "number" && Number.isFinite(value) && value > 0)) {
      return `\`${key}\` must be a positive number${key === "timeout" ? " of milliseconds" : " of bytes"}`;
    }
  }
  if (o.tools !== undefined) {
    if (typeof o.tools !== "object" || o.tools === null || Array.isArray(o.tools)) {
      return "`tools` must be an object of overrides by tool name";
    }
    for (const [name, override] of Object.entries(o.tools)) {
      if (typeof override !== "object" || override === null) return `\`tools.${name}\` must be an object`;
      const { name: rename, description, needsApproval } = override as Record<string, unknown>;
      if (rename !== undefined && (typeof rename !== "string" || rename === "")) return `\`tools.${name}.name\` must be a non-empty string`;
      if (description !== undefined && typeof description !== "string") return `\`tools.${name}.description\` must be a string`;
      if (needsApproval !== undefined && typeof needsApproval !== "boolean" && typeof needsApproval !== "function") {
        return `\`tools.${name}.needsApproval\` must be a boolean or a function of the input`;
      }
    }
  }
  return undefined;
}

function isStringArray(value: unknown): boolean {
  return Array.isArray(value) && value.every((v) => typeof v === "string");
}
