import { Bm25Index, type LexicalAnalysis } from '@memory/lexical';

/**
 * The lexical side of one end user's memories: a BM25 index of their terms and a keyword index of their exact
 * identifiers. Built from the stored analyses on the user's first lexical query, then kept in step with writes.
 */
export class LexicalScope {
  private readonly bm25 = new Bm25Index();
  private readonly byIdentifier = new Map<string, Set<string>>();
  private readonly identifiersOf = new Map<string, string[]>();

  get size(): number {
    return this.bm25.size;
  }

  has(id: string): boolean {
    return this.identifiersOf.has(id);
  }

  upsert(id: string, analysis: LexicalAnalysis): void {
    this.remove(id);
    this.bm25.add(id, analysis.terms);
    this.identifiersOf.set(id, analysis.identifiers);
    for (const identifier of analysis.identifiers) {
      let ids = this.byIdentifier.get(identifier);
      if (!ids) this.byIdentifier.set(identifier, (ids = new Set()));
      ids.add(id);
    }
  }

  remove(id: string): void {
    this.bm25.remove(id);
    for (const identifier of this.identifiersOf.get(id) ?? []) {
      const ids = this.byIdentifier.get(identifier);
      ids?.delete(id);
      if (ids?.size === 0) this.byIdentifier.delete(identifier);
    }
    this.identifiersOf.delete(id);
  }

  search(terms: string[], k: number, accept?: (id: string) => boolean) {
    return this.bm25.search(terms, k, accept);
  }

  /** Ids holding any of the identifiers, each once, in the order the identifiers were given. */
  lookup(identifiers: string[]): string[] {
    const found = new Set<string>();
    for (const identifier of identifiers) for (const id of this.byIdentifier.get(identifier.toLowerCase()) ?? []) found.add(id);
    return [...found];
  }
}
