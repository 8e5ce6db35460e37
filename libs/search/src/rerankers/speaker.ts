/**
 * Transcript lines: a memory written as "Name: what they said" (a chat message, a meeting note) is a statement by
 * Name. When a query names a person, what that person said is the best evidence about them; the other speakers'
 * replies to them ("Wow, Mel, that painting is awesome!") mention them without telling much.
 */

/** How much more a line by a speaker the query names weighs than any other memory (see speakerFactor). */
export const SPEAKER_MATCH_BOOST = 0.4;

/** One to three capitalised words and a colon, opening the text: "Melanie: ...", "Dr Okafor: ...". */
const SPEAKER_PREFIX = /^\s*(\p{Lu}[\p{L}'’.-]*(?: \p{Lu}[\p{L}'’.-]*){0,2}):\s/u;

/** The speaker of a transcript line, or null for a memory that is not one. */
export function speakerOf(text: string): string | null {
  return SPEAKER_PREFIX.exec(text)?.[1] ?? null;
}

/** The speakers the query names, by their written form (case-sensitive, whole words: "Will:" is not "will"). */
export function speakersNamed(query: string, speakers: Iterable<string | null>): Set<string> {
  const named = new Set<string>();
  for (const speaker of speakers) {
    if (speaker === null || named.has(speaker)) continue;
    const escaped = speaker.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    if (new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, 'u').test(query)) named.add(speaker);
  }
  return named;
}

/**
 * The factor on a memory's relevance: 1 when the query names no speaker of the candidates, or names this memory's;
 * 1 / (1 + SPEAKER_MATCH_BOOST) for the others. Lowering the rest rather than lifting the match keeps scores in 0..1.
 */
export function speakerFactor(speaker: string | null, named: ReadonlySet<string>): number {
  return named.size === 0 || (speaker !== null && named.has(speaker)) ? 1 : 1 / (1 + SPEAKER_MATCH_BOOST);
}
