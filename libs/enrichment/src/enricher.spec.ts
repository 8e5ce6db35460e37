import { expect } from 'chai';
import { MEMORY_TYPES } from './memory-types.js';
import { sharedEnricher } from './spec-fixture.js';
import type { Enricher, Enrichment } from './types.js';

describe('createEnricher / enrich', () => {
  let enricher: Enricher;
  const enrich = (content: string, userContext: string | null = null): Enrichment => enricher.enrich({ content, userContext });

  before(async () => {
    enricher = await sharedEnricher();
  });

  describe('a movie night: "Caroline and I watched the horror movie \'Hereditary\' at the Alamo Drafthouse in Austin last Friday"', () => {
    let result: Enrichment;
    before(() => {
      result = enrich("Caroline and I watched the horror movie 'Hereditary' at the Alamo Drafthouse in Austin last Friday");
    });

    it('finds the person, the place, the venue and the title', () => {
      const byKey = new Map(result.entities.map((entity) => [entity.key, entity.type]));
      expect(byKey.get('caroline')).to.equal('person');
      expect(byKey.get('austin')).to.equal('place');
      expect(['organization', 'place']).to.include(byKey.get('alamo drafthouse'));
      expect(byKey.get('hereditary')).to.equal('title');
    });

    it('does not report the sentence-initial pronoun or the weekday as entities', () => {
      const keys = result.entities.map((entity) => entity.key);
      expect(keys).to.not.include('i');
      expect(keys).to.not.include('friday');
    });

    it('reports the title, the genre and a dated happening', () => {
      expect(result.mentionedTitles).to.deep.equal(['Hereditary']);
      expect(result.movieGenre).to.equal('horror');
      expect(['event', 'experience']).to.include(result.memoryType);
    });

    it('does not read the genre or the title as a feeling', () => {
      expect(result.sentiment).to.equal('neutral');
    });

    it('themes it as movies and lemmatises the keywords', () => {
      expect(result.themes).to.include('movies');
      expect(result.keywords).to.include.members(['watch', 'movie']);
      expect(result.keywords).to.not.include('caroline');
      expect(result.synonyms).to.include('film');
    });
  });

  it('"I love hiking with my dog on weekends" is a positive preference about hobbies and animals', () => {
    const result = enrich('I love hiking with my dog on weekends');
    expect(result.memoryType).to.equal('preference');
    expect(result.themes).to.include('hobbies');
    expect(result.themes.some((theme) => theme === 'animals' || theme === 'pets')).to.equal(true);
    expect(result.sentiment).to.equal('positive');
    expect(result.sentimentScore).to.be.greaterThan(0.3).and.at.most(1);
    expect(result.keywords).to.include.members(['love', 'hike', 'dog']);
    expect(result.synonyms).to.include('enjoy');
    expect(result.movieGenre).to.equal(null);
  });

  describe('sentiment', () => {
    it('is positive, negative, neutral or mixed, with a score in -1..1', () => {
      const positive = enrich('The concert was wonderful and the band was amazing.');
      const negative = enrich('The flight was delayed and the hotel was dirty and awful.');
      const neutral = enrich('The meeting is on Tuesday at the main office.');
      const mixed = enrich('I loved the food but the service was terrible.');
      expect([positive.sentiment, negative.sentiment, neutral.sentiment, mixed.sentiment]).to.deep.equal([
        'positive', 'negative', 'neutral', 'mixed',
      ]);
      expect(positive.sentimentScore).to.be.greaterThan(0.3).and.at.most(1);
      expect(negative.sentimentScore).to.be.lessThan(-0.3).and.at.least(-1);
      expect(neutral.sentimentScore).to.equal(0);
    });

    it('follows negation', () => {
      expect(enrich("I'm not happy with the new manager.").sentiment).to.equal('negative');
    });
  });

  describe('synonyms from WordNet', () => {
    it('gives the usual stand-ins of the most frequent sense: car -> automobile', () => {
      const result = enrich('My car broke down on the highway.');
      expect(result.synonyms).to.include('automobile');
      expect(result.synonyms).to.not.include('car');
      expect(result.keywords).to.include('break down');
    });

    it('leaves out rare and off-sense lemmas and never repeats a word of the text', () => {
      const result = enrich('Yesterday I went to the doctor because my knee was hurting.');
      expect(result.synonyms).to.include('physician');
      expect(result.synonyms).to.not.include.members(['genu', 'articulatio genus', 'doc']);
      const words = new Set(result.keywords);
      expect(result.synonyms.some((synonym) => words.has(synonym))).to.equal(false);
    });

    it('is bounded per keyword and in total', () => {
      const long = enrich(
        'The car, the movie, the doctor, the house, the garden, the kitchen, the teacher, the student, the music, ' +
          'the picture, the journey, the forest, the river, the mountain and the city were all part of the story.',
      );
      expect(long.synonyms.length).to.be.at.most(20);
      expect(new Set(long.synonyms).size).to.equal(long.synonyms.length);
    });
  });

  describe('userContext', () => {
    it('"sci-fi fan" makes "We watched Dune" a sci-fi movie memory', () => {
      const result = enrich('We watched Dune', 'sci-fi fan');
      expect(result.movieGenre).to.equal('sci-fi');
      expect(result.mentionedTitles).to.deep.equal(['Dune']);
      expect(result.themes).to.include('movies');
    });

    it('steers themes but adds no keywords', () => {
      const result = enrich('We cooked pasta tonight.', 'family dinner diary');
      expect(result.themes).to.include('family');
      expect(result.keywords).to.not.include.members(['family', 'diary']);
    });

    it('tips the type only in a close call', () => {
      expect(enrich('Watched it again.', 'movie night, we love animated films').memoryType).to.equal('fact');
      expect(enrich('Watched it again.', 'movie night, we love animated films').movieGenre).to.equal('animation');
    });
  });

  it('finds titles of any medium, not only films, without a genre', () => {
    const result = enrich('I was reading The Lord of the Rings while listening to Abbey Road by the Beatles.');
    expect(result.mentionedTitles).to.deep.equal(['The Lord of the Rings', 'Abbey Road']);
    expect(result.movieGenre).to.equal(null);
    expect(result.entities.find((entity) => entity.key === 'beatles')?.type).to.equal('organization');
  });

  it('keeps quoted speech out of the titles', () => {
    expect(enrich('She said "I\'m fine" but she looked tired.').mentionedTitles).to.deep.equal([]);
  });

  it('returns a value from the closed type list for every input, including empty text', () => {
    const empty = enrich('');
    expect(MEMORY_TYPES).to.include(empty.memoryType);
    expect(empty).to.deep.include({ keywords: [], entities: [], sentiment: 'neutral', sentimentScore: 0, enrichedText: '' });
  });

  it('embeds the content alone, trimmed (themes and synonyms stay in the payload, not in the vector)', () => {
    const result = enrich('  I love hiking with my dog on weekends ');
    expect(result.enrichedText).to.equal('I love hiking with my dog on weekends');
    expect(result.themes.length).to.be.greaterThan(0);
  });

  it('is deterministic: the same input gives the same output', () => {
    const content = 'My sister Melanie works at Google in New York and she is going to visit Paris next week.';
    expect(enrich(content, 'travel notes')).to.deep.equal(enrich(content, 'travel notes'));
  });

  it('stays fast after load (target well under 2 ms for a 20-word sentence)', () => {
    const sentences = [
      "Caroline and I watched the horror movie 'Hereditary' at the Alamo Drafthouse in Austin last Friday and loved it",
      'My sister Melanie works at Google in New York and she is going to visit Paris next week with her kids',
      'Yesterday I went to the doctor because my knees were hurting badly after the long hike with my dog',
    ];
    // compromise and V8 need a thousand calls or so to warm up; steady state is what a consumer sees.
    for (let i = 0; i < 1000; i++) enrich(`${sentences[i % 3]} ${i}`, i % 2 ? 'sci-fi fan' : null);
    const runs = 300;
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    for (let i = 0; i < runs; i++) enrich(`${sentences[i % 3]} ${i}`, i % 2 ? 'sci-fi fan' : null);
    const perCall = (performance.now() - started) / runs;
    const cpu = process.cpuUsage(cpuBefore);
    const cpuPerCall = (cpu.user + cpu.system) / 1000 / runs;
    console.log(
      `      [enrichment] enrich(): ${perCall.toFixed(2)} ms wall, ${cpuPerCall.toFixed(2)} ms CPU per 20-word sentence (mean of ${runs})`,
    );
    expect(perCall).to.be.lessThan(10);
  });
});

describe('plans from resolved time references', () => {
  it('files a memory that mentions a period after it was written as a plan, even with the words resolved away', async () => {
    const enricher = await sharedEnricher();
    const written = Date.parse('2023-05-08T13:56:00Z');
    const content = 'Dinner with Jake at Luigi on 2023-05-09T19:00:00Z';
    const ahead = enricher.enrich({ content, userContext: null, time: { referenceTime: written, mentions: [{ start: Date.parse('2023-05-09T19:00:00Z') }] } });
    const behind = enricher.enrich({ content, userContext: null, time: { referenceTime: Date.parse('2023-06-01T00:00:00Z'), mentions: [{ start: Date.parse('2023-05-09T19:00:00Z') }] } });
    expect(ahead.memoryType).to.equal('plan');
    expect(behind.memoryType).to.not.equal('plan');
  });
});
