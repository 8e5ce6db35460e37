import { Bm25Index, lexicalTerms } from '@memory/lexical';

export interface RankableTurn {
  id: string;
  text: string;
}

/**
 * The plain-BM25 baseline: one index over one conversation's turns, each query ranked against it alone, with the
 * service's own analyser so the baseline differs from the service in ranking, not in tokenising.
 */
export function bm25Rankings(turns: readonly RankableTurn[], queries: readonly string[], k: number): string[][] {
  const index = new Bm25Index();
  for (const turn of turns) index.add(turn.id, lexicalTerms(turn.text));
  return queries.map((query) => index.search(lexicalTerms(query), k).map((hit) => hit.id));
}
