import { jsonSchema, tool, type Tool as AITool } from "ai";
import { TOOL_SOURCE } from "../runtime/tool-source-mark.js";
import { streamSafe } from "../runtime/streamed-step.js";
import { sourceOf, toolSource, type ToolSourceComponent, type ToolSourceTools } from "../runtime/tool-source.js";

/** The name of the tool `<Memory />` gives a step's model. */
export const UPDATE_MEMORY_TOOL = "update_memory";

/** Props of `<Memory>`. */
export interface MemoryProps {
  /** What the model is told the tool is for (default: keep what matters about the user across sessions). */
  description?: string;
}

/**
 * What serves `<Memory />` for a run: the working memory of the turn's owner (or session), put in effect around
 * the run by a chat with `memory: { working }`. Internal to June: apps read and set memory with `chat.memory(owner)`.
 */
export interface RunMemory {
  readonly [TOOL_SOURCE]: object;
  /** The longest text `update` takes, in characters. */
  readonly maxChars: number;
  /** Writes the whole new text; `changed: false` (no new version) when it is the current text. */
  update(text: string): Promise<{ version: number; changed: boolean }>;
}

/**
 * Gives the model of the steps it serves (a child of `<Agent>` or `<Step>`, like `<Tool>`) a tool named
 * `update_memory` with `{ memory: string }`: the whole new text of the working memory the chat keeps for the
 * turn's owner (`createChat({ memory: { working } })`), read back by later turns, in any session of that owner.
 * An update that changes nothing writes no new version; the call is a tool call, never reply text. After it the
 * model is called again, as after any tool. Steps without `<Memory />` in their scope get no such tool; the text
 * reaches a step only where `render`'s `memory.working` is passed. A tool source (`toolSource()`), like `<AskUser>`.
 *
 * @example
 * render: ({ input, messages, memory }) => (
 *   <Agent model={model}>
 *     <Memory />
 *     <Step id="reply" stream system={`What you remember:\n${memory.working ?? ""}`} prompt={[...messages, { role: "user", content: input }]} />
 *   </Agent>
 * )
 */
export const Memory: ToolSourceComponent<MemoryProps> = toolSource<MemoryProps, string | undefined, RunMemory | undefined>({
  name: "Memory",
  check(props) {
    if (props.description !== undefined && typeof props.description !== "string") throw new TypeError("`description` must be a string");
    return props.description;
  },
  open: (run) => run.provided[0] as RunMemory | undefined,
  stepTools({ levels, session }) {
    if (levels.every((level) => level.length === 0)) return undefined;
    if (!session) {
      throw new TypeError("<Memory />: this run keeps no memory: run it in a chat made with `memory: { working }` (createChat)");
    }
    return levels.map((entries): readonly ToolSourceTools[] =>
      entries.length === 0 ? [] : [{ tools: { [UPDATE_MEMORY_TOOL]: updateMemoryTool(session, entries[entries.length - 1]) }, label: "<Memory />" }],
    );
  },
});

/** June's own: a streamed step may call it (it keeps a note in the chat's store and is never streamed as text). */
function updateMemoryTool(memory: RunMemory, description: string | undefined): AITool<any, any> {
  return streamSafe(tool({
    description:
      description ??
      `Replace your working memory about the user with \`memory\`: its whole new text (facts, preferences and ongoing work worth keeping across conversations), at most ${memory.maxChars} characters. Call it only when something new is worth keeping; an unchanged text is not saved again.`,
    inputSchema: jsonSchema<{ memory: string }>({
      type: "object",
      properties: { memory: { type: "string", description: "The whole new memory text" } },
      required: ["memory"],
      additionalProperties: false,
    }),
    execute: async ({ memory: text }: { memory: string }) => {
      if (typeof text !== "string") throw new TypeError("update_memory: `memory` must be a string");
      if (text.length > memory.maxChars) throw new RangeError(`update_memory: the memory is ${text.length} characters; keep it to ${memory.maxChars}`);
      const { version, changed } = await memory.update(text);
      return changed ? `Saved as version ${version}.` : `Unchanged: version ${version} already says this. Do not call update_memory again for it.`;
    },
  } as AITool<any, any>));
}

/** Marks `memory` as what serves `<Memory />` for runs (see `withToolSources`). */
export function runMemory(memory: Omit<RunMemory, typeof TOOL_SOURCE>): RunMemory {
  return { ...memory, [TOOL_SOURCE]: sourceOf(Memory)! };
}
