import type { ChatTraceRow } from "../chat/trace/project-chat-trace.js";
import type { ApprovalRequest } from "../runtime/types.js";
import type { Colors } from "./colors.js";
import type { Redact } from "./output-gate.js";

/**
 * Pure renderers: what the CLI shows, as strings. Printing them is `screen.ts`'s job, so both can be
 * tested apart; what they return is masked on its way out by the output gate. A renderer that cuts a value
 * (a tool's input) takes the gate's `redact`, so the value is masked before it is cut.
 */

/** Rows still at work: running or waiting, depth first. */
function activeRows(rows: readonly ChatTraceRow[]): ChatTraceRow[] {
  const out: ChatTraceRow[] = [];
  for (const row of rows) {
    if (row.status === "running" || row.status === "pending") out.push(row);
  }
  return out;
}

/** The deepest running or waiting descendant of a row, if any. */
function activeLeaf(row: ChatTraceRow): ChatTraceRow | undefined {
  let leaf: ChatTraceRow | undefined;
  for (const child of row.children) {
    if (child.status === "running" || child.status === "pending") leaf = activeLeaf(child) ?? child;
  }
  return leaf;
}

export interface ProgressLineOptions {
  colors: Colors;
  /** The terminal's width: the line is cut to fit. */
  columns?: number;
}

/**
 * The one live progress line of a turn or run: each running step's title and what it is doing now
 * ("Running draft · Calling search"), or `""` when nothing runs.
 */
export function renderProgressLine(rows: readonly ChatTraceRow[], options: ProgressLineOptions): string {
  const parts = activeRows(rows).map((step) => {
    const leaf = activeLeaf(step);
    return leaf ? `${step.title} · ${leaf.title}` : step.title;
  });
  if (parts.length === 0) return "";
  const text = oneLine(parts.join("  |  "));
  const columns = options.columns !== undefined && options.columns >= 20 ? options.columns : 80;
  const max = columns - 3;
  const cut = text.length > max ? `${text.slice(0, max - 1)}…` : text;
  // "…", not the prompt's "›": a line that is working, not one waiting for you.
  return `${options.colors.cyan("…")} ${options.colors.dim(cut)}`;
}

/** Longest input shown in an approval prompt. */
const MAX_PROMPT_INPUT_CHARS = 2_000;

/** A tool's input for an approval prompt: redacted (`mask`, the output gate's `redact`), as JSON, bounded. */
export function formatToolInput(input: unknown, mask: Redact, maxChars = MAX_PROMPT_INPUT_CHARS): string {
  let text: string;
  try {
    const safe = mask(input);
    text = typeof safe === "string" ? safe : (JSON.stringify(safe, null, 2) ?? String(safe));
  } catch {
    text = "[unserializable]";
  }
  return text.length > maxChars ? `${text.slice(0, maxChars - 1)}…` : text;
}

/**
 * The approval question on stderr: the tool and its redacted input (`header`), then `approve? [y/N] `. A
 * sub-agent's request (a `<Tool agent>`'s, its `stepId` a path such as `answer/research/notes`) names the path.
 */
export function renderApprovalPrompt(
  request: Pick<ApprovalRequest, "toolName" | "input" | "mcp"> & { readonly stepId?: string },
  colors: Colors,
  mask: Redact,
): { header: string; question: string } {
  const input = formatToolInput(request.input, mask)
    .split("\n")
    .map((line) => `  ${line}`)
    .join("\n");
  return {
    header: `${colors.yellow("?")} ${colors.bold(request.toolName)}${request.mcp ? ` (MCP server ${request.mcp.server})` : ""}${request.stepId?.includes("/") ? ` (in ${request.stepId})` : ""} wants to run with\n${input}`,
    question: `${colors.yellow("approve? [y/N/e(dit)]")} `,
  };
}

/** `y` or `yes` (any case) approves; `e` or `edit` edits the input first; anything else, an empty line included, denies. */
export function approvalAnswer(answer: string | undefined): "approve" | "edit" | "deny" {
  if (answer === undefined) return "deny";
  if (/^\s*y(es)?\s*$/i.test(answer)) return "approve";
  if (/^\s*e(dit)?\s*$/i.test(answer)) return "edit";
  return "deny";
}

/** One line about an approval decided without asking (`--yes`, `--deny`, no terminal). */
export function renderApprovalDecision(
  decision: { toolName: string; approved: boolean; reason?: string },
  colors: Colors,
): string {
  return decision.approved
    ? `${colors.green("✓")} approved ${decision.toolName}`
    : `${colors.red("✗")} denied ${decision.toolName}${decision.reason ? ` (${decision.reason})` : ""}`;
}

/** One error line: `june: message` with the message on one line. */
export function renderErrorLine(message: string, colors: Colors): string {
  return `${colors.red("june:")} ${oneLine(message)}`;
}

/** A turn or run that failed: `name: message`, on one line (masked when it is written, by the output gate). */
export function describeFailure(error: unknown): string {
  if (typeof error === "string") return oneLine(error);
  const { name: rawName, message: rawMessage } = (typeof error === "object" && error !== null ? error : {}) as { name?: unknown; message?: unknown };
  const name = typeof rawName === "string" ? rawName : "Error";
  const message = typeof rawMessage === "string" ? rawMessage : String(error);
  return oneLine(name === "Error" ? message : `${name}: ${message}`);
}

/** Collapses whitespace runs (newlines included) to single spaces. */
export function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, " ").trim();
}
