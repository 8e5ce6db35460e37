import { expect } from 'chai';
import type { Caller } from './http-caller.js';

/**
 * A word no other memory of any scenario contains, so finding it (in search or in raw bytes) means this memory. It
 * always ends in a digit, so it reads as an identifier and direct_lookup finds it (a suffix of letters only, one word
 * in seven, did not: tests searching by it failed now and then).
 */
export const secretWord = (name: string) => `${name}${Math.random().toString(36).slice(2, 7)}${Math.floor(Math.random() * 10)}`;

/** Ids of the memories a search finds, through every strategy that could reach the words: lexical, semantic, identifier. */
export async function foundIds(api: Caller, query: string): Promise<string[]> {
  const ids = new Set<string>();
  for (const body of [{ query, options: { limit: 50 } }, { query, strategy: 'centroid_aware', options: { limit: 50 } }, { query, strategy: 'direct_lookup', options: { limit: 50 } }]) {
    const res = await api.post('/v1/search', body);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    for (const hit of res.body.data) ids.add(hit.id);
  }
  return [...ids];
}
