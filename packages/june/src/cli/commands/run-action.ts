import type { CommandContext } from "citty";
import { streamTraceRows } from "../../chat/stream/turn-stream.js";
import { approvalView } from "../../chat/trace/approval-view.js";
import { RunError } from "../../runtime/errors.js";
import { start } from "../../runtime/start.js";
import type { ApprovalRequest, RunHandle, RunResult, TraceNode } from "../../runtime/types.js";
import { jsx } from "../../jsx/jsx-runtime.js";
import { approvalMode } from "../args.js";
import { askApproval, createApprover } from "../approvals.js";
import { cancelOnInterrupt, EXIT_CANCELED } from "../cancel-on-interrupt.js";
import { CliUsageError } from "../errors.js";
import type { CliIO } from "../io.js";
import { jsonLine, jsonRunEnd, JsonTraceRows, type CliJsonEvent } from "../json-events.js";
import { createLineReader, type LineReader } from "../line-reader.js";
import { loadRunModule } from "../load-module.js";
import { chosenModelSpec, createModel, parseModelSpec, preloadProvider } from "../models.js";
import { explainProviderError } from "../provider-errors.js";
import { describeFailure, renderErrorLine, renderProgressLine } from "../render.js";
import { Screen } from "../screen.js";
import type { runArgs } from "./run.js";

/** Runs `june run <file>` (see `runCommand`) and returns the exit code. */
export async function runWorkflow(io: CliIO, { args }: CommandContext<typeof runArgs>): Promise<number> {
  if (args._.length > 1) throw new CliUsageError(`Unexpected argument "${args._[1]}": june run takes one file`);
  const file = args._[0];
  if (file === undefined) throw new CliUsageError("Missing the workflow file: june run <file>");
  const mode = approvalMode(args);
  // The provider package is imported before the module, so it does not load through the module hooks.
  await preloadProvider(args.model ?? io.env.JUNE_MODEL);
  const loaded = await loadRunModule({ file, cwd: io.cwd });
  if (loaded.kind === "script") {
    // It ran when it was imported (a start() of its own): nothing for june run to run, and nothing failed.
    const given = (["input", "model", "json", "yes", "deny"] as const).filter((flag) => args[flag] !== undefined && args[flag] !== false);
    if (given.length > 0) {
      throw new CliUsageError(
        `${file} has no default export, so --${given[0]} cannot reach it (it ran its own workflow when loaded): export default the workflow element, or a component taking { input, model }`,
      );
    }
    const screen = new Screen(io);
    screen.note(screen.err.dim(`${file} has no default export: it ran as a script (its own start())`));
    return 0;
  }
  if (loaded.kind === "element") {
    if (args.input !== undefined) {
      throw new CliUsageError(`--input applies to a component: ${file} exports a workflow element, which takes no input`);
    }
    const flag = args.model !== undefined ? "--model" : args["base-url"] !== undefined ? "--base-url" : undefined;
    if (flag !== undefined) {
      throw new CliUsageError(
        `${file} exports a workflow element, so ${flag} cannot reach it: export a component ({ input, model }) => <Agent model={model}>...</Agent> instead`,
      );
    }
  }
  const spec = chosenModelSpec({ model: args.model, baseUrl: args["base-url"], env: io.env });
  const model = spec === undefined ? undefined : await createModel({ spec: parseModelSpec(spec), env: io.env, baseUrl: args["base-url"] });
  const element =
    loaded.kind === "element"
      ? loaded.element
      : jsx(loaded.component, { input: args.input ?? "", ...(model === undefined ? {} : { model }) });
  const json = args.json === true;
  const screen = new Screen(io);
  const emit = (event: CliJsonEvent) => screen.data(jsonLine(event));
  let reader: LineReader | undefined;
  const approver = createApprover({ mode, io, screen, reader: () => (reader ??= createLineReader(io)) });

  let handle: RunHandle | undefined;
  const seen = new Set<string>();
  const traceRows = new JsonTraceRows();
  let approvals: Promise<void> = Promise.resolve();
  const interrupt = cancelOnInterrupt({ io, screen, cancel: () => handle?.cancel("canceled with Ctrl-C") });

  const ask = (request: ApprovalRequest, run: RunHandle) =>
    askApproval({
      request,
      shown: approvalView(request, io.redaction),
      target: run,
      approver,
      signal: interrupt.signal,
      ...(json ? { emit } : {}),
    });
  const onUpdate = (tree: TraceNode) => {
    const run = handle;
    if (!run) return;
    const rows = streamTraceRows(tree, { requests: run.requests, redaction: io.redaction });
    const changed = json ? traceRows.update(rows) : undefined;
    if (changed) emit(changed);
    screen.status(renderProgressLine(rows, { colors: screen.err, columns: io.stderr.columns }));
    for (const request of run.requests) {
      if (seen.has(request.id)) continue;
      seen.add(request.id);
      approvals = approvals.then(() => ask(request, run));
    }
  };

  try {
    try {
      handle = start(element as Parameters<typeof start>[0], { onUpdate });
    } catch (error) {
      // Nothing ran: the module's workflow does not render. A configuration error, like a bad export.
      const hint =
        loaded.kind === "component" ? " (june run expects a component that returns a workflow element; for a chat module use june chat or june ask)" : "";
      screen.note(renderErrorLine(`${file} cannot run: ${describeFailure(error)}${hint}`, screen.err));
      return 2;
    }
    let result: RunResult;
    try {
      result = await handle.result;
    } catch (error) {
      await approvals.catch(() => {});
      screen.resetStatus();
      const partial = RunError.isInstance(error) ? error.result : undefined;
      const canceled = partial?.status === "canceled" || interrupt.signal.aborted;
      const cause = RunError.isInstance(error) && error.cause !== undefined ? error.cause : error;
      if (json) {
        emit(
          jsonRunEnd(
            {
              runId: partial?.id ?? handle.id,
              status: canceled ? "canceled" : "error",
              ...(partial ? { result: partial } : {}),
              ...(canceled ? {} : { error: cause }),
            },
            io,
          ),
        );
      }
      if (canceled) {
        screen.note(screen.err.yellow("canceled"));
        return EXIT_CANCELED;
      }
      screen.note(renderErrorLine(`the run failed: ${explainProviderError(cause) ?? describeFailure(cause)}`, screen.err));
      return 1;
    }
    await approvals.catch(() => {});
    screen.resetStatus();
    if (json) {
      emit(jsonRunEnd({ runId: result.id, status: result.status, result }, io));
    } else {
      // Masked as the turn stream masks a turn's reply: June's patterns, then the user's own (JUNE_REDACT).
      const output = io.redact(finalOutput(result));
      if (output !== undefined) {
        screen.reply(typeof output === "string" ? output : JSON.stringify(output, null, 2));
        screen.endReply();
      }
    }
    return 0;
  } finally {
    interrupt.dispose();
    reader?.close();
  }
}

/** The result of the step that finished last (later in the trace wins a tie), or `undefined` with no step. */
export function finalOutput(result: RunResult): unknown {
  let last: { id: string; endedAt: number } | undefined;
  const visit = (node: TraceNode) => {
    if (node.kind === "step" && node.status === "done" && node.name in result.steps) {
      const endedAt = node.endedAt ?? 0;
      if (!last || endedAt >= last.endedAt) last = { id: node.name, endedAt };
    }
    for (const child of node.children) visit(child);
  };
  visit(result.trace);
  return last ? result.steps[last.id] : undefined;
}
