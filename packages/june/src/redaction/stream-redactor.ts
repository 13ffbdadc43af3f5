import { redactText, TOKEN_START, type TextRedactOptions } from "./redact.js";

/** Longest piece held back waiting for its end; past it, it goes out (redacted) as it is. */
const MAX_HELD_CHARS = 4_096;

/** Words after which the next word is a credential even on its own (`Bearer <token>`, `Authorization: <value>`). */
const PREFIX_WORD = /^(?:bearer|basic|token)$|:$/i;

/**
 * Redacts streamed text whose credentials may be split across deltas (a model writes a key a few characters
 * at a time). It holds back the last, possibly unfinished word (and the word before it when that one
 * announces a credential, such as `Bearer`), and redacts each piece once it is whole. `flush()` releases the
 * rest at the end of the text. Joined, the pieces are the text with every credential that sits within a
 * line masked.
 */
export class StreamRedactor {
  #pending = "";
  readonly #options: TextRedactOptions;

  /** @param options Patterns of your own, masked after June's (see `redactText`). */
  constructor(options: TextRedactOptions = {}) {
    this.#options = options;
  }

  /** Takes the next delta; returns the redacted text that is safe to send now (maybe ""). */
  push(delta: string): string {
    this.#pending += delta;
    const split = this.#pending.length > MAX_HELD_CHARS ? this.#pending.length : safeSplit(this.#pending);
    if (split === 0) return "";
    const ready = this.#pending.slice(0, split);
    this.#pending = this.#pending.slice(split);
    return redactText(ready, this.#options);
  }

  /** Releases whatever is held back, redacted. */
  flush(): string {
    const rest = this.#pending;
    this.#pending = "";
    return rest === "" ? "" : redactText(rest, this.#options);
  }
}

/**
 * Where the text can be cut so that no credential straddles the cut: before its last word, or before the word
 * before it when that one announces a credential (`Bearer`) or is a token that a line break may wrap (`sk-…`
 * at a line's end).
 */
function safeSplit(text: string): number {
  const lastWord = startOfLastWord(text, text.length);
  if (lastWord === 0) return 0;
  // `text[lastWord - 1]` is whitespace; look at the word before it.
  const beforeEnd = trimEnd(text, lastWord);
  const previous = startOfLastWord(text, beforeEnd);
  const word = text.slice(previous, beforeEnd);
  if (PREFIX_WORD.test(word)) return previous;
  // A line break after a token, or the start of one (`\r` of `\r\n`), with nothing or one word after it.
  const between = text.slice(beforeEnd, lastWord);
  return TOKEN_START.test(word) && (lastWord === text.length ? /^\r?\n?$/ : /^\r?\n$/).test(between) ? previous : lastWord;
}

/** The index where the word ending at `end` starts (just after the whitespace before it). */
function startOfLastWord(text: string, end: number): number {
  let i = end;
  while (i > 0 && !/\s/.test(text[i - 1])) i--;
  return i;
}

function trimEnd(text: string, end: number): number {
  let i = end;
  while (i > 0 && /\s/.test(text[i - 1])) i--;
  return i;
}
