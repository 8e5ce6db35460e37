import { entityKey } from '@memory/enrichment';
import { findIdentifiers, lexicalTerms } from '@memory/lexical';
import { parseTimeRange, type TimeRange } from '@memory/temporal';
import { eventRelativeRange, findEventRelativeTime, type EventRelativeTime } from './relative-to-event.js';

/** What a query says before any store is asked: its terms, exact identifiers, time range and entity candidates. */
export interface QueryAnalysis {
  query: string;
  terms: string[];
  identifiers: string[];
  /** True when the query is nothing but identifiers (and stop words): meaning has nothing to add. */
  identifiersOnly: boolean;
  timeRange: TimeRange | null;
  /** "two days before the wedding": resolved into timeRange once the event is found (see resolveEventRange). */
  relativeToEvent: EventRelativeTime | null;
  /** Graph keys of every 1-4 word span of the query: the graph says which of them are the user's entities. */
  entityKeys: string[];
}

const MAX_ENTITY_WORDS = 4;
/** A name in a query often comes without the title it was stored with ("Okafor" for the node "Dr Okafor"). */
const TITLES = ['dr', 'mr', 'mrs', 'ms', 'miss', 'prof', 'sir'];
/** Question words and pronouns are never entities, whatever the graph holds. */
const NOT_ENTITIES = new Set(['i', 'me', 'my', 'we', 'us', 'you', 'what', 'when', 'where', 'who', 'why', 'how', 'which', 'the', 'a', 'an', 'did', 'do', 'does', 'is', 'was', 'are']);

export function analyseQuery(query: string, time: { now: number; timeZone: string }): QueryAnalysis {
  const identifiers = findIdentifiers(query);
  const terms = lexicalTerms(query);
  const identifierTerms = new Set(identifiers.flatMap((id) => lexicalTerms(id)));
  const identifiersOnly = identifiers.length > 0 && terms.every((t) => identifierTerms.has(t));
  // A query of codes has no time in it ("ORD-2024-1187" is not the year 2024), and reading one with the date
  // parser costs more than the lookup itself.
  const { timeRange, relativeToEvent } = identifiersOnly ? { timeRange: null, relativeToEvent: null } : timeOf(query, time);
  return { query, terms, identifiers, identifiersOnly, timeRange, relativeToEvent, entityKeys: entitySpans(query) };
}

function timeOf(query: string, time: { now: number; timeZone: string }): Pick<QueryAnalysis, 'timeRange' | 'relativeToEvent'> {
  const relativeToEvent = findEventRelativeTime(query);
  const options = { referenceTime: time.now, timeZone: time.timeZone };
  // "the week before 9 June 2023" is relative to a date, not to an event; "two days before the wedding" is not two
  // days before now, whatever a date parser makes of it. The date is read from the rest of the query, since the
  // event's words stop at a comma ("August 3, 2023").
  const anchorDate = relativeToEvent ? parseTimeRange(query.slice(relativeToEvent.eventIndex), options) : null;
  const timeRange: TimeRange | null = relativeToEvent
    ? anchorDate
      ? { ...eventRelativeRange(relativeToEvent, anchorDate.from), text: relativeToEvent.text, yearImplied: anchorDate.yearImplied }
      : null
    : parseTimeRange(query, options);
  return { timeRange, relativeToEvent: timeRange ? null : relativeToEvent };
}

function entitySpans(query: string): string[] {
  const words = query.split(/[^\p{L}\p{N}'’&.-]+/u).map((w) => w.replace(/^[.'’-]+|[.'’-]+$/g, '')).filter(Boolean);
  const keys = new Set<string>();
  for (let start = 0; start < words.length; start++) {
    for (let length = 1; length <= MAX_ENTITY_WORDS && start + length <= words.length; length++) {
      const span = words.slice(start, start + length);
      if (length === 1 && NOT_ENTITIES.has(span[0]!.toLowerCase())) continue;
      const key = entityKey(span.join(' '));
      if (key.length < 2) continue;
      keys.add(key);
      if (length === 1 && /^\p{Lu}/u.test(span[0]!)) for (const title of TITLES) keys.add(`${title} ${key}`);
    }
  }
  return [...keys];
}
