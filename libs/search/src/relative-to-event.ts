import { lexicalTerms } from '@memory/lexical';
import type { Scope, VectorStore } from '@memory/ports';
import type { TimeRange } from '@memory/temporal';

/**
 * "two days before the wedding", "a week after my surgery", "the day before the party": a time named relative to
 * an event of the user's own memories. The event's date is not in the query; search finds the memory about it.
 */
export interface EventRelativeTime {
  amount: number;
  unit: 'day' | 'week' | 'month' | 'year';
  direction: -1 | 1;
  /** The words naming the event ("wedding"), looked up in the user's memories. */
  event: string;
  /** Where the event's words start in the query. */
  eventIndex: number;
  /** The words of the query that named the time. */
  text: string;
}

const NUMBER_WORDS: Record<string, number> = { a: 1, an: 1, the: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, 'a couple of': 2, 'a few': 3 };
const PATTERN = /\b(\d{1,3}|a couple of|a few|an?|the|one|two|three|four|five|six|seven|eight|nine|ten)\s+(day|week|month|year)s?\s+(before|after)\s+((?:the|my|our|his|her|their)\s+)?([\p{L}\p{N}' -]{3,60}?)(?=[?.!,;]|\s+(?:and|when|where|did|was|were)\b|$)/iu;
const UNIT_MS = { day: 86_400_000, week: 7 * 86_400_000, month: 30 * 86_400_000, year: 365 * 86_400_000 } as const;

export function findEventRelativeTime(query: string): EventRelativeTime | null {
  const match = PATTERN.exec(query);
  if (!match) return null;
  const [text, amountText, unit, direction, , event] = match;
  const amount = /^\d+$/.test(amountText!) ? Number(amountText) : NUMBER_WORDS[amountText!.toLowerCase()];
  if (!amount || !event?.trim()) return null;
  const eventIndex = match.index + text!.length - event.length + (event.length - event.trimStart().length);
  return { amount, unit: unit!.toLowerCase() as EventRelativeTime['unit'], direction: direction!.toLowerCase() === 'before' ? -1 : 1, event: event.trim(), eventIndex, text: text!.trim() };
}

/**
 * The range such a time covers once the event's moment is known: the whole day for days (in UTC), otherwise one
 * unit centred on the shifted moment ("two weeks before" = the week around fourteen days earlier).
 */
export function eventRelativeRange(relative: Pick<EventRelativeTime, 'amount' | 'unit' | 'direction'>, eventTime: number): { from: number; to: number } {
  const shifted = eventTime + relative.direction * relative.amount * UNIT_MS[relative.unit];
  if (relative.unit === 'day') {
    const dayStart = Math.floor(shifted / UNIT_MS.day) * UNIT_MS.day;
    return { from: dayStart, to: dayStart + UNIT_MS.day };
  }
  return { from: shifted - UNIT_MS[relative.unit] / 2, to: shifted + UNIT_MS[relative.unit] / 2 };
}

/**
 * Finds the event's memory (best BM25 match of its words among the user's memories; the first of the top five that
 * has a resolved event time, else the best one's creation time) and returns the range relative to it.
 */
export async function resolveEventRange(
  vectors: VectorStore,
  scope: Scope,
  relative: EventRelativeTime,
): Promise<{ range: TimeRange; anchor: string } | null> {
  const terms = lexicalTerms(relative.event);
  if (terms.length === 0) return null;
  const found = await vectors.textSearch(scope, { terms, k: 5 });
  if (found.length === 0) return null;
  const memories = new Map((await vectors.getWithoutVectors(scope, found.map((f) => f.id))).map((m) => [m.id, m]));
  const ranked = found.map((f) => memories.get(f.id)).filter((m) => m !== undefined);
  const event = ranked.find((m) => m.eventTimes.length > 0) ?? ranked[0];
  if (!event) return null;
  const moment = event.eventTimes[0]?.start ?? event.createdAt;
  return { range: { ...eventRelativeRange(relative, moment), text: relative.text, yearImplied: false }, anchor: event.id };
}
