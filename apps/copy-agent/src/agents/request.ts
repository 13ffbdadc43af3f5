/**
 * A request split the way the offline agents read it: what to do (`instruction`) and the copy to do it to
 * (`text`, the draft). A real model does this by reading; the offline agents do it by rule, so that "Make it
 * shorter: <copy>" works on the copy, and "Make it shorter" on the previous reply, never on the request's
 * own wording.
 *
 * - quoted copy (`"…"` or `“…”`) is the text: `Translate "Fresh coffee every day" into German`;
 * - after a short instruction, a colon starts the text (`Make it shorter: <copy>`), and so does a line break
 *   after an instruction (`Make it shorter` on its own line, the copy below);
 * - an instruction alone (it opens with a verb such as make, shorten, edit, translate, or with "shorter",
 *   "Spanish") works on the previous reply's copy; with no previous reply there is no text;
 * - anything else is copy to work on as it stands.
 */
export interface CopyRequest {
  /** What the user asks for, without the copy: where the agent looks for a language, say. */
  instruction: string;
  /** The draft to work on; `undefined` when the request names none and no earlier reply has copy. */
  text: string | undefined;
}

/** An instruction is at most this many words before its colon or line break; longer is copy with a colon in it. */
const INSTRUCTION_WORDS = 10;

const QUOTED = /"([^"]+)"|“([^”]+)”/;

/** Requests about copy rather than copy: they open with an instruction ("Make it shorter", "Now in Spanish"). */
const INSTRUCTION =
  /^\s*(please\s+|can you\s+|could you\s+|now\s+|and\s+|ok(ay)?,?\s+)*(make|shorten|tighten|edit|fix|rewrite|reword|polish|improve|simplify|cut|trim|clean|redo|try|translate|put|turn|change|do|again|publish|shorter|simpler|punchier|tighter|(in |into )?(french|spanish|german))\b/i;

/** The request's instruction and the draft it works on (`previousCopy`: the copy of the last reply with any). */
export function readRequest(input: string, previousCopy: string | undefined): CopyRequest {
  const request = input.trim();
  const quoted = QUOTED.exec(request);
  if (quoted) {
    const text = (quoted[1] ?? quoted[2]!).trim();
    return { instruction: (request.slice(0, quoted.index) + request.slice(quoted.index + quoted[0].length)).trim(), text };
  }
  const colon = /^([^:\n]+?)\s*:\s*([\s\S]+)$/.exec(request);
  if (colon && colon[1]!.split(/\s+/).length <= INSTRUCTION_WORDS) return { instruction: colon[1]!, text: colon[2]!.trim() };
  const line = /^([^\n]+)\n+([\s\S]+)$/.exec(request);
  if (line && INSTRUCTION.test(line[1]!) && line[1]!.split(/\s+/).length <= INSTRUCTION_WORDS) return { instruction: line[1]!.trim(), text: line[2]!.trim() };
  if (INSTRUCTION.test(request)) return { instruction: request, text: previousCopy };
  return { instruction: "", text: request };
}
