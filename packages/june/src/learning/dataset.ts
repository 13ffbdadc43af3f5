import { rebuildContext } from "../chat/context/rebuild-context.js";
import type { Chat, TurnRecord } from "../chat/types.js";
import type { DatasetFilter, DatasetOptions, EvalCase, EvalCaseMetadata } from "./types.js";

/**
 * The completed turns of a chat's sessions as eval cases, one session at a time (newest session first,
 * its turns oldest first). Each case's `messages` are the context its turn was answered with, rebuilt from
 * the turn's context provenance (the ids its context builder chose) with the same `turnMessages` the
 * built-in builders use, so they equal what the responder got. (A custom builder that returned bare
 * messages recorded no turn ids: its cases have empty `messages`.)
 *
 * @param chat The chat whose store holds the sessions.
 * @param options `filter` (`"all"` by default, `"up"`, `"down"` or a predicate) and `sessions` (ids).
 * @example
 * for await (const evalCase of dataset(chat, { filter: "down" })) console.log(evalCase.input);
 * await writeFile("cases.jsonl", await toJSONL(dataset(chat)));
 */
export function dataset(chat: Chat, options: DatasetOptions = {}): AsyncIterable<EvalCase> {
  if (typeof chat !== "object" || chat === null || typeof chat.openSession !== "function") {
    throw new TypeError("dataset(chat, options): chat must be a Chat (createChat(...))");
  }
  if (typeof options !== "object" || options === null) throw new TypeError("dataset(chat, options): options must be an object");
  const keep = caseFilter(options.filter);
  const sessions = options.sessions;
  if (sessions !== undefined && (!Array.isArray(sessions) || !sessions.every((id) => typeof id === "string"))) {
    throw new TypeError("dataset({ sessions }): sessions must be an array of session ids");
  }
  return {
    async *[Symbol.asyncIterator]() {
      const ids = sessions ?? (await chat.listSessions()).map((info) => info.id);
      for (const id of ids) {
        const session = await chat.openSession(id);
        for (const evalCase of sessionCases(session.id, await session.turns())) {
          if (keep(evalCase)) yield evalCase;
        }
      }
    },
  };
}

/**
 * One session's completed turns as eval cases, oldest first.
 *
 * @param sessionId The session's id.
 * @param turns Its turns, oldest first, as `session.turns()` returns them.
 */
export function sessionCases(sessionId: string, turns: readonly TurnRecord[]): EvalCase[] {
  const cases: EvalCase[] = [];
  for (const record of turns) {
    if (record.status !== "completed") continue;
    const metadata: EvalCaseMetadata = {
      sessionId,
      turnId: record.id,
      responder: record.metadata?.responder ? { ...record.metadata.responder } : { kind: "custom" },
      at: record.endedAt ?? record.startedAt,
    };
    if (record.metadata?.model) metadata.model = { ...record.metadata.model };
    if (record.metadata?.usage) metadata.usage = { ...record.metadata.usage };
    if (record.metadata?.cost) metadata.cost = { ...record.metadata.cost };
    const evalCase: EvalCase = {
      id: `${sessionId}/${record.id}`,
      input: record.input,
      ...(record.files ? { files: record.files.map((file) => ({ ...file })) } : {}),
      messages: rebuildContext(record, turns),
      reply: record.text ?? "",
      metadata,
    };
    if (record.feedback) {
      evalCase.feedback = { ...record.feedback, ...(record.feedback.tags && { tags: [...record.feedback.tags] }) };
    }
    cases.push(evalCase);
  }
  return cases;
}

/** Feedback above 0.5 is up (a thumbs-up is 1), below 0.5 down (a thumbs-down is -1); 0.5 is neither. */
function caseFilter(filter: DatasetFilter | undefined): (evalCase: EvalCase) => boolean {
  switch (filter) {
    case undefined:
    case "all":
      return () => true;
    case "up":
      return (evalCase) => evalCase.feedback !== undefined && evalCase.feedback.score > 0.5;
    case "down":
      return (evalCase) => evalCase.feedback !== undefined && evalCase.feedback.score < 0.5;
    default:
      if (typeof filter === "function") return (evalCase) => Boolean(filter(evalCase));
      throw new TypeError(`dataset({ filter }): filter must be "up", "down", "all" or a function of the case, got ${JSON.stringify(filter)}`);
  }
}
