import { expect } from 'chai';
import { turnMemoryText } from './turn-text.js';

describe('turn as memory text', () => {
  it('puts the speaker before what was said', () => {
    expect(turnMemoryText({ speaker: 'Caroline', text: 'I went to a LGBTQ support group yesterday.', caption: null })).to.equal(
      'Caroline: I went to a LGBTQ support group yesterday.',
    );
  });

  it('adds the caption of a shared image', () => {
    expect(turnMemoryText({ speaker: 'Melanie', text: 'Look what I painted!', caption: 'a painting of a sunset over a lake' })).to.equal(
      'Melanie: Look what I painted! [shared image: a painting of a sunset over a lake]',
    );
  });

  it('keeps an image without words readable', () => {
    expect(turnMemoryText({ speaker: 'Jon', text: '  ', caption: 'a dance studio' })).to.equal('Jon: [shared image: a dance studio]');
  });
});
