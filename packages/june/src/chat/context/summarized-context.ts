import type { LanguageModel, ModelMessage } from "ai";
import { streamModel } from "../../ai-sdk/stream-model.js";
import type { JournalEntry } from "../../stores/types.js";
import type { ContextBuilder, ContextOptions, ContextResult, TurnRecord } from "../types.js";
import { estimateTokens } from "../../cost/estimate-tokens.js";
import { isCompleted, messageText, turnMessages } from "./turn-messages.js";

export interface SummarizedContextOptions {
  /** The model that writes the summaries. */
  model: LanguageModel;
  /** How many of the newest completed turns are always sent as they are: a whole number, 0 or more. */
  keepRecent: number;
  /** A new summary is written once the turns older than `keepRecent` (and not yet summarized) pass this many tokens. */
  triggerTokens: number;
  /** Counts a text's tokens. The default estimates one token per four characters, rounded up. */
  count?: (text: string) => number;
}

const SUMMARIZER_SYSTEM =
  "You summarize a conversation between a user and an assistant so that it can go on without the full transcript. " +
  "Keep the facts, names, decisions, open questions and the user's preferences. Write the summary only.";

/** How a summary is put before the recent turns (a `user` message: its text is model-written, so never `system`). */
export function summaryMessage(text: string): ModelMessage {
  return { role: "user", content: `[Summary of the earlier conversation]\n${text}` };
}

/**
 * Older turns replaced by a summary the model writes. The newest `keepRecent` completed turns are always
 * sent as they are; once the turns before them that no summary covers yet pass `triggerTokens`, the model
 * summarizes them (with the previous summary, if any) and the builder returns that summary in its result:
 * the session journals it once as a `summary` entry (`throughTurnId`: the last turn it covers, `text`),
 * and later turns reuse it until the next one.
 *
 * The context sent is `[summary message, every completed turn after it]` (the summary as a `user` message,
 * see `summaryMessage`). Its provenance records `summaryId`, which is the summary entry's `throughTurnId`
 * (a turn's branch is unique, so it names one summary), and the ids of the turns sent.
 *
 * @example
 * createChat({ model, context: summarizedContext({ model, keepRecent: 6, triggerTokens: 4_000 }) });
 */
export function summarizedContext(options: SummarizedContextOptions): ContextBuilder {
  const { model, keepRecent, triggerTokens, count = estimateTokens } = options ?? ({} as SummarizedContextOptions);
  if (model === undefined || model === null) throw new TypeError("summarizedContext({ model }): model is required");
  if (!Number.isInteger(keepRecent) || keepRecent < 0) {
    throw new TypeError(`summarizedContext({ keepRecent }): keepRecent must be a whole number, 0 or more, got ${String(keepRecent)}`);
  }
  if (typeof triggerTokens !== "number" || !(triggerTokens >= 0)) {
    throw new TypeError(`summarizedContext({ triggerTokens }): triggerTokens must be a number, 0 or more, got ${String(triggerTokens)}`);
  }
  if (typeof count !== "function") throw new TypeError("summarizedContext({ count }): count must be a function of a text");
  /** Summaries written but maybe not journaled yet (a preview, a retried append), by the last turn they cover. */
  // Per open session (`ContextOptions.scope`), so nothing of a dropped session stays.
  const written = new WeakMap<object, WeakMap<TurnRecord, { previous: string | undefined; text: string }>>();

  return async function summarizedContextBuilder(history: TurnRecord[], context: ContextOptions): Promise<ContextResult> {
    const journaled = summariesOf(context.entries);
    // The newest journaled summary on this branch, and the completed turns after it.
    let from = 0;
    let summaryId: string | undefined;
    for (let i = history.length - 1; i >= 0; i--) {
      if (journaled.has(history[i]!.id)) {
        summaryId = history[i]!.id;
        from = i + 1;
        break;
      }
    }
    let summaryText = summaryId === undefined ? undefined : journaled.get(summaryId);
    let after = history.slice(from).filter(isCompleted);
    const older = after.slice(0, Math.max(0, after.length - keepRecent));
    let summary: ContextResult["summary"];
    if (older.length > 0 && tokensOf(older, count) > triggerTokens) {
      const through = older[older.length - 1]!;
      let mine = context.scope === undefined ? undefined : written.get(context.scope);
      if (mine === undefined) {
        mine = new WeakMap();
        if (context.scope !== undefined) written.set(context.scope, mine);
      }
      const cached = mine.get(through);
      const text =
        cached !== undefined && cached.previous === summaryText ? cached.text : await summarize(model, summaryText, older);
      mine.set(through, { previous: summaryText, text });
      summary = { throughTurnId: through.id, text };
      summaryId = through.id;
      summaryText = text;
      after = after.slice(older.length);
    }
    const messages: ModelMessage[] = summaryText === undefined ? [] : [summaryMessage(summaryText)];
    for (const record of after) for (const message of turnMessages(record)) messages.push(message);
    const result: ContextResult = { name: "summarizedContext", messages, turnIds: after.map((record) => record.id) };
    if (summaryId !== undefined) result.summaryId = summaryId;
    if (summary !== undefined) result.summary = summary;
    return result;
  };
}

/** The journal's summaries by `throughTurnId`, read incrementally per journal (the live entries array). */
const scanned = new WeakMap<readonly JournalEntry[], { upTo: number; byTurn: Map<string, string> }>();

/** The text of every `summary` entry, by the last turn it covers (the latest entry wins). */
export function summariesOf(entries: readonly JournalEntry[]): ReadonlyMap<string, string> {
  let memo = scanned.get(entries);
  if (memo === undefined || memo.upTo > entries.length) {
    memo = { upTo: 0, byTurn: new Map() };
    scanned.set(entries, memo);
  }
  for (let i = memo.upTo; i < entries.length; i++) {
    const entry = entries[i]!;
    if (entry.type === "summary") memo.byTurn.set(entry.throughTurnId, entry.text);
  }
  memo.upTo = entries.length;
  return memo.byTurn;
}

function tokensOf(records: readonly TurnRecord[], count: (text: string) => number): number {
  let tokens = 0;
  for (const record of records) for (const message of turnMessages(record)) tokens += count(messageText(message));
  return tokens;
}

/** Asks the model for a summary of the previous summary and the older turns. */
async function summarize(model: LanguageModel, previous: string | undefined, records: readonly TurnRecord[]): Promise<string> {
  const parts: string[] = [];
  if (previous !== undefined) parts.push(`Summary so far:\n${previous}`);
  const lines: string[] = [];
  for (const record of records) {
    for (const message of turnMessages(record)) lines.push(`${message.role === "user" ? "User" : "Assistant"}: ${messageText(message)}`);
  }
  parts.push(`Conversation${previous !== undefined ? " since" : ""}:\n${lines.join("\n\n")}`);
  // streamText (not generateText): any model that streams can summarize, the test models included.
  // A failure rejects `text` below (and fails the turn); no console noise.
  const { result } = streamModel({ model, instructions: SUMMARIZER_SYSTEM, messages: [{ role: "user", content: parts.join("\n\n") }], settings: {} });
  const text = (await result.text).trim();
  // resolveContext wraps what a builder throws in a ContextBuildError naming the builder: the user sees that.
  if (text.length === 0) throw new Error("the summarizer model returned an empty summary");
  return text;
}
