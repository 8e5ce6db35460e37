import { expect } from 'chai';
import { classifyMemoryType } from './classify-type.js';
import { MEMORY_TYPES, TEXT_MEMORY_TYPES, isMemoryType } from './memory-types.js';
import { tokenize } from './tokens.js';

function typeOf(content: string, userContext = '', personCount = 0): string {
  return classifyMemoryType({ tokens: tokenize(content), contextTokens: userContext ? tokenize(userContext) : [], personCount });
}

describe('memory types', () => {
  it('is a closed list that includes the pipeline-only types; the text classifier uses the rest', () => {
    expect(MEMORY_TYPES).to.include.members(['fact', 'document_page', 'image']);
    expect(TEXT_MEMORY_TYPES).to.not.include.members(['document_page', 'image']);
    expect(TEXT_MEMORY_TYPES.every((type) => isMemoryType(type))).to.equal(true);
    expect(isMemoryType('anecdote')).to.equal(false);
  });

  const cases: [string, string, number?][] = [
    ["I'm going to call the bank about my mortgage.", 'plan'],
    ['We will visit my parents next weekend.', 'plan'],
    ['I love hiking with my dog on weekends', 'preference'],
    ['My favorite food is sushi.', 'preference'],
    ["I don't like horror movies.", 'preference'],
    ['I want to run a marathon someday.', 'goal'],
    ["I'd love to learn Japanese.", 'goal'],
    ['The doctor changed my medication because of the side effects.', 'health'],
    ['Yesterday I went to the doctor because my knee was hurting.', 'health'],
    ['My sister Melanie married Tom in June.', 'relationship', 2],
    ['Caroline is my best friend.', 'relationship', 1],
    ["Caroline and I watched the horror movie 'Hereditary' at the Alamo Drafthouse in Austin last Friday", 'event', 1],
    ['We attended a wedding on 2023-05-06T00:00:00.000Z.', 'event'],
    ['Yesterday I met Jon at Starbucks.', 'event', 1],
    ['I got lost in Venice once.', 'experience'],
    ['I think the sequel was overrated.', 'opinion'],
    ['In my opinion the book is better than the film.', 'opinion'],
    ['My apartment is on the third floor.', 'fact'],
    ['The weather is nice.', 'fact'],
  ];
  for (const [content, expected, persons] of cases) {
    it(`"${content}" -> ${expected}`, () => {
      expect(typeOf(content, '', persons ?? 0)).to.equal(expected);
    });
  }

  it('reads like/love as a comparison or a wish where the grammar says so', () => {
    expect(typeOf('It looks like rain.')).to.equal('fact');
    expect(typeOf('I would love to visit Japan.')).to.equal('goal');
  });

  it('never reads a name as a cue word', () => {
    expect(typeOf('I gave Will a ride home.')).to.not.equal('plan');
  });

  it('lets userContext tip a close call but not outvote the text', () => {
    expect(typeOf('The blood test showed high cholesterol.')).to.equal('health');
    expect(typeOf('Took the pills before lunch.', 'health journal')).to.equal('health');
    expect(typeOf('I love hiking with my dog on weekends', 'health journal')).to.equal('preference');
  });
});
