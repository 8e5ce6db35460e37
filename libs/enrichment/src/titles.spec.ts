import { expect } from 'chai';
import { entityKey, findEntities } from './entities.js';
import { findTitles } from './titles.js';
import { tokenize } from './tokens.js';

const titlesOf = (text: string) => findTitles(tokenize(text)).map((title) => title.name);
const entitiesOf = (text: string) => {
  const tokens = tokenize(text);
  return findEntities(tokens, findTitles(tokens)).entities.map((entity) => `${entity.type}:${entity.name}`);
};

describe('titles', () => {
  it('takes quoted spans and Title Case phrases after media nouns and verbs', () => {
    expect(titlesOf("We saw the horror movie 'Hereditary' last night.")).to.deep.equal(['Hereditary']);
    expect(titlesOf('Finally finished “Project Hail Mary” by Andy Weir.')).to.deep.equal(['Project Hail Mary']);
    expect(titlesOf('I was reading The Lord of the Rings on the train.')).to.deep.equal(['The Lord of the Rings']);
    expect(titlesOf('Listening to Abbey Road again.')).to.deep.equal(['Abbey Road']);
    expect(titlesOf('I played Zelda: Breath of the Wild for hours.')).to.deep.equal(['Zelda: Breath of the Wild']);
    expect(titlesOf('We watched Dune on Friday.')).to.deep.equal(['Dune']);
  });

  it('splits lists after one cue and keeps "and the" inside a title', () => {
    expect(titlesOf('We watched Arrival and Interstellar last night.')).to.deep.equal(['Arrival', 'Interstellar']);
    expect(titlesOf('The kids watched Beauty and the Beast again.')).to.deep.equal(['Beauty and the Beast']);
  });

  it('stops a title before a venue or a town', () => {
    expect(titlesOf('We saw the film Oppenheimer at the IMAX.')).to.deep.equal(['Oppenheimer']);
    expect(titlesOf('We watched Dune in Austin.')).to.deep.equal(['Dune']);
  });

  it('does not take people met, speech, or names that own the thing watched', () => {
    expect(titlesOf('We saw Caroline at the park.')).to.deep.equal([]);
    expect(titlesOf('She said "I am fine" and left.')).to.deep.equal([]);
    expect(titlesOf("We watched Caroline's recital.")).to.deep.equal([]);
  });
});

describe('entities', () => {
  it('types people, places and organisations, and unknown names by their head word or preposition', () => {
    expect(entitiesOf('My sister Melanie works at Google in New York.')).to.deep.equal([
      'person:Melanie', 'organization:Google', 'place:New York',
    ]);
    expect(entitiesOf('We had coffee at the Blue Bottle Cafe.')).to.deep.equal(['organization:Blue Bottle Cafe']);
    expect(entitiesOf('We had a picnic at Zilker Park.')).to.deep.equal(['place:Zilker Park']);
    expect(entitiesOf('She studies at the University of Texas.')).to.deep.equal(['organization:University of Texas']);
    expect(entitiesOf('I called Mom.')).to.deep.equal(['person:Mom']);
  });

  it('ignores words capitalised only because they start a sentence, pronouns and calendar words', () => {
    expect(entitiesOf('Yesterday I went hiking. Later we ate on Friday in June.')).to.deep.equal([]);
  });

  it('removes possessives and orders entities as they appear, titles included', () => {
    expect(entitiesOf("Caroline's dog loves the movie 'Up'.")).to.deep.equal(['person:Caroline', 'title:Up']);
  });

  it('keys are lowercase, trimmed and article-free except for titles', () => {
    expect(entityKey('  The  Beatles. ')).to.equal('beatles');
    expect(entityKey("Caroline's")).to.equal('caroline');
    expect(entityKey('“The Office”', 'title')).to.equal('the office');
  });
});
