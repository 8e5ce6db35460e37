import { expect } from 'chai';
import { SPEAKER_MATCH_BOOST, speakerFactor, speakerOf, speakersNamed } from './speaker.js';

describe('speakers of transcript lines', () => {
  it('reads the opening "Name:" of a line, and nothing else', () => {
    expect(speakerOf('Melanie: I painted that lake sunrise last year!')).to.equal('Melanie');
    expect(speakerOf('Dr Okafor: take two a day')).to.equal('Dr Okafor');
    expect(speakerOf('Note to self: buy milk')).to.equal(null);
    expect(speakerOf('Meeting at 10:30 with Ana')).to.equal(null);
    expect(speakerOf('I told Ana: no more late nights')).to.equal(null);
  });

  it('finds the speakers a query names, by whole word and written case', () => {
    const speakers = ['Melanie', 'Caroline', 'Will', null];
    expect([...speakersNamed('What did Melanie paint recently?', speakers)]).to.deep.equal(['Melanie']);
    expect([...speakersNamed('what will I do in May', speakers)]).to.deep.equal([]);
    expect([...speakersNamed("What are Melanie's kids called?", speakers)]).to.deep.equal(['Melanie']);
    expect([...speakersNamed('Did Melanies come?', speakers)]).to.deep.equal([]);
  });

  it('lowers the lines of other speakers, and nothing when the query names none', () => {
    const named = new Set(['Melanie']);
    expect(speakerFactor('Melanie', named)).to.equal(1);
    expect(speakerFactor('Caroline', named)).to.be.closeTo(1 / (1 + SPEAKER_MATCH_BOOST), 1e-12);
    expect(speakerFactor(null, named)).to.be.closeTo(1 / (1 + SPEAKER_MATCH_BOOST), 1e-12);
    expect(speakerFactor('Caroline', new Set())).to.equal(1);
  });
});
