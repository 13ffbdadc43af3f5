import { distance } from "fastest-levenshtein";

/**
 * The name in `names` a mistyped `word` most likely meant (`chta` → `chat`, `--modle` → `--model`), or
 * `undefined` when none is close: at most 2 edits, and no more than half the length. A name that
 * starts with the word (`sess` → `sessions`) counts as close.
 */
export function closestName(word: string, names: readonly string[]): string | undefined {
  const lower = word.toLowerCase();
  let best: { name: string; cost: number } | undefined;
  for (const name of names) {
    const cost = name.startsWith(lower) && lower.length >= 2 ? 0.5 : distance(lower, name.toLowerCase());
    if (cost > 2 || cost > Math.max(lower.length, name.length) / 2) continue;
    if (!best || cost < best.cost) best = { name, cost };
  }
  return best?.name;
}

/** `` (did you mean "chat"?)`` for a mistyped word, or `""`. */
export function didYouMean(word: string, names: readonly string[], quote = (name: string) => `"${name}"`): string {
  const name = closestName(word, names);
  return name === undefined ? "" : ` (did you mean ${quote(name)}?)`;
}
