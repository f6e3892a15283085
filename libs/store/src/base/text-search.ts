/**
 * Free-text search as Convoy's list APIs offer it (`q` on endpoints, `query` on events). The text
 * is the user's: it is compared as text, never turned into a pattern or a query operator (no
 * `$regex` to escape, nothing a `.*` or `(a+)+` could do).
 */

/** How many words of a search are used at most: each one is a pass over every candidate. */
export const MAX_SEARCH_WORDS = 10;

/** Whether `text` contains `part`, ignoring case (Convoy's `ILIKE '%part%'`, `%` and `_` literal). */
export function containsIgnoringCase(text: string, part: string): boolean {
  return text.toLowerCase().includes(part.toLowerCase());
}

/** The words of a search, lower-cased, in order, without repeats (at most MAX_SEARCH_WORDS). */
export function searchWords(query: string): string[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  return [...new Set(words)].slice(0, MAX_SEARCH_WORDS);
}

/**
 * Whether `text` contains every one of `words` (lower-cased, see searchWords), ignoring case: the
 * meaning of Convoy's event search (every word of the query in the payload), by substring.
 */
export function hasEveryWord(text: string, words: readonly string[]): boolean {
  const haystack = text.toLowerCase();
  return words.every((w) => haystack.includes(w));
}
