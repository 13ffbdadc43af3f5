/**
 * How a session's title shows in the sidebar, whose width holds about `SHOWN_CHARS` of it. A title that
 * starts like another one for longer than that would read the same once cut ("Deploy the docs to stag…"),
 * so it is cut in the middle instead: its `head` (the shared start, which gives way first, with an
 * ellipsis) and its `tail`, from the word where it differs from the others on. Other titles are one `head`,
 * cut at the end as before. `head + tail` is always the whole title.
 */
export interface TitleCut {
  head: string;
  tail?: string;
}

/** About how many characters of a title the sidebar shows before it cuts. */
export const SHOWN_CHARS = 20;

function sharedStart(a: string, b: string): number {
  let index = 0;
  while (index < a.length && index < b.length && a[index] === b[index]) index++;
  return index;
}

/** Each title's cut, in the order given; titles that are equal stay whole (their start time tells them apart). */
export function cutTitles(titles: readonly string[]): TitleCut[] {
  return titles.map((title) => {
    if (title.length <= SHOWN_CHARS) return { head: title };
    let shared = 0;
    for (const other of titles) if (other !== title) shared = Math.max(shared, sharedStart(title, other));
    if (shared < SHOWN_CHARS) return { head: title };
    // From the start of the word where it differs (or, when it is the start of a longer title, its last word).
    const from = title.lastIndexOf(" ", Math.min(shared, title.length) - 1) + 1;
    if (from === 0) return { head: title };
    return { head: title.slice(0, from), tail: title.slice(from) };
  });
}
