/**
 * How many results session-level recall reads: Engram's LoCoMo benchmark retrieves twice its R@5 cut-off, so its
 * R@10 can look at no more than ten results, whatever sessions they fall in.
 */
export const SESSION_RECALL_HITS = 10;

const TURN_ID = /^D(\d+):\d+$/;

/** The session a LoCoMo turn id belongs to ("D3:12" is session 3); null for an id of another shape. */
export function sessionOfTurn(diaId: string): number | null {
  const m = TURN_ID.exec(diaId);
  return m ? Number(m[1]) : null;
}

/**
 * The sessions of the first `hits` results, in the order first met, each once. A result that is no turn (null)
 * keeps a place of its own, as a document outside every session would.
 */
export function rankedSessions(ranked: ReadonlyArray<string | null>, hits: number = SESSION_RECALL_HITS): Array<number | null> {
  const sessions: Array<number | null> = [];
  for (const id of ranked.slice(0, hits)) {
    const session = id === null ? null : sessionOfTurn(id);
    if (session === null || !sessions.includes(session)) sessions.push(session);
  }
  return sessions;
}

/**
 * Session-level recall at k, scored as Engram's published LoCoMo benchmark scores it: the first SESSION_RECALL_HITS
 * results mapped to their sessions (in order, each once), and a hit when some session of the evidence is among the
 * first k of them. Far more forgiving than turn-level recall: any turn of the right session counts.
 */
export function sessionRecall(ranked: ReadonlyArray<string | null>, evidence: readonly string[], k: number): boolean {
  if (!Number.isInteger(k) || k < 1) throw new RangeError(`k must be a whole number of at least 1, not ${k}`);
  if (evidence.length === 0) throw new RangeError('a question without evidence cannot be scored');
  const wanted = new Set(evidence.map(sessionOfTurn).filter((session) => session !== null));
  return rankedSessions(ranked)
    .slice(0, k)
    .some((session) => session !== null && wanted.has(session));
}
