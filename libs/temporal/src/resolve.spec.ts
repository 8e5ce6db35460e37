import { expect } from 'chai';
import { MemoryServiceError } from '@memory/platform';
import type { TimeMention } from './index.js';
import { resolveTimeReferences } from './index.js';

// Monday 8 May 2023, 13:56 UTC.
const REF = Date.parse('2023-05-08T13:56:00Z');
const at = (iso: string) => Date.parse(iso);

function resolve(text: string, timeZone: string | null = 'UTC', referenceTime = REF) {
  return resolveTimeReferences(text, { referenceTime, timeZone });
}

function only(text: string, timeZone: string | null = 'UTC', referenceTime = REF): TimeMention {
  const { mentions } = resolve(text, timeZone, referenceTime);
  expect(mentions, `mentions in "${text}"`).to.have.length(1);
  return mentions[0] as TimeMention;
}

interface Case {
  words: string;
  iso: string;
  start: string;
  end: string;
  relative: boolean;
  mention?: string;
}

describe('resolveTimeReferences', () => {
  describe('the expressions the service must understand (UTC, reference Monday 2023-05-08T13:56Z)', () => {
    const cases: Case[] = [
      { words: 'next Friday', iso: '2023-05-19', start: '2023-05-19T00:00Z', end: '2023-05-20T00:00Z', relative: true },
      { words: 'in 3 days', iso: '2023-05-11', start: '2023-05-11T00:00Z', end: '2023-05-12T00:00Z', relative: true },
      { words: 'yesterday', iso: '2023-05-07', start: '2023-05-07T00:00Z', end: '2023-05-08T00:00Z', relative: true },
      { words: 'last week', iso: '2023-W18', start: '2023-05-01T00:00Z', end: '2023-05-08T00:00Z', relative: true },
      { words: 'tomorrow at 5pm', iso: '2023-05-09T17:00:00Z', start: '2023-05-09T17:00Z', end: '2023-05-09T18:00Z', relative: true },
      { words: 'two weeks ago', iso: '2023-04-24', start: '2023-04-24T00:00Z', end: '2023-04-25T00:00Z', relative: true },
      { words: 'today', iso: '2023-05-08', start: '2023-05-08T00:00Z', end: '2023-05-09T00:00Z', relative: true },
      { words: 'last night', iso: '2023-05-07', start: '2023-05-07T18:00Z', end: '2023-05-08T06:00Z', relative: true },
      { words: 'this weekend', iso: '2023-05-13/2023-05-14', start: '2023-05-13T00:00Z', end: '2023-05-15T00:00Z', relative: true },
      { words: 'next month', iso: '2023-06', start: '2023-06-01T00:00Z', end: '2023-07-01T00:00Z', relative: true },
      { words: '3 days ago', iso: '2023-05-05', start: '2023-05-05T00:00Z', end: '2023-05-06T00:00Z', relative: true },
      { words: 'last Saturday', iso: '2023-05-06', start: '2023-05-06T00:00Z', end: '2023-05-07T00:00Z', relative: true },
      { words: 'on Monday', mention: 'Monday', iso: '2023-05-08', start: '2023-05-08T00:00Z', end: '2023-05-09T00:00Z', relative: true },
      { words: 'last year', iso: '2022', start: '2022-01-01T00:00Z', end: '2023-01-01T00:00Z', relative: true },
      { words: 'in May 2023', mention: 'May 2023', iso: '2023-05', start: '2023-05-01T00:00Z', end: '2023-06-01T00:00Z', relative: false },
      { words: 'May 8, 2023', iso: '2023-05-08', start: '2023-05-08T00:00Z', end: '2023-05-09T00:00Z', relative: false },
    ];
    for (const c of cases) {
      it(`"${c.words}" -> ${c.iso}`, () => {
        const text = `Note: ${c.words} matters.`;
        const { resolvedText, mentions } = resolve(text);
        expect(mentions).to.have.length(1);
        const mention = mentions[0] as TimeMention;
        const words = c.mention ?? c.words;
        expect(mention).to.deep.equal({
          text: words, index: text.indexOf(words), iso: c.iso, start: at(c.start), end: at(c.end), relative: c.relative,
        });
        expect(resolvedText).to.equal(text.replace(words, c.iso));
      });
    }
  });

  it('replaces the words by the ISO value only and keeps the rest of the text as it was', () => {
    expect(resolve('I met her yesterday').resolvedText).to.equal('I met her 2023-05-07');
    expect(resolve('We meet on Monday, at 3pm.').resolvedText).to.equal('We meet on 2023-05-08T15:00:00Z.');
    expect(resolve('The party was on Sat.').resolvedText).to.equal('The party was on 2023-05-06.');
    expect(resolve('I moved here in 2019, since 2020 I work remotely').resolvedText)
      .to.equal('I moved here in 2019, since 2020 I work remotely');
  });

  it('gives every mention the index of its words in the ORIGINAL text', () => {
    const text = 'I met Anna yesterday and we meet again next Friday at 7pm; last week was hard, this weekend too.';
    const { resolvedText, mentions } = resolve(text);
    expect(mentions.map((m) => m.text)).to.deep.equal(['yesterday', 'next Friday at 7pm', 'last week', 'this weekend']);
    for (const mention of mentions) {
      expect(text.slice(mention.index, mention.index + mention.text.length)).to.equal(mention.text);
    }
    expect(resolvedText).to.equal(
      'I met Anna 2023-05-07 and we meet again 2023-05-19T19:00:00Z; 2023-W18 was hard, 2023-05-13/2023-05-14 too.');
  });

  it('merges what belongs together and keeps adjacent references apart', () => {
    expect(only('yesterday at 5pm').iso).to.equal('2023-05-07T17:00:00Z');
    const between = only('between March and June 2023');
    expect(between).to.include({ text: 'March and June 2023', iso: '2023-03/2023-06', relative: false });
    expect([between.start, between.end]).to.deep.equal([at('2023-03-01T00:00Z'), at('2023-07-01T00:00Z')]);
    expect(only('from May 1 to May 5, 2023')).to.include({ iso: '2023-05-01/2023-05-05', end: at('2023-05-06T00:00Z') });
    expect(only('9am-5pm')).to.include({ start: at('2023-05-08T09:00Z'), end: at('2023-05-08T17:00Z') });
    const { resolvedText, mentions } = resolve('today, tomorrow');
    expect(mentions).to.have.length(2);
    expect(resolvedText).to.equal('2023-05-08, 2023-05-09');
  });

  it('understands rolling windows, seasons, bare years and ISO weeks across a year boundary', () => {
    expect(only('in the past two weeks')).to.include({
      text: 'the past two weeks', iso: '2023-04-24/2023-05-08', start: at('2023-04-24T00:00Z'), end: at('2023-05-09T00:00Z'),
    });
    expect(only('over the last few days').iso).to.equal('2023-05-05/2023-05-08');
    expect(only('in the next few months')).to.include({
      text: 'the next few months', iso: '2023-05-08/2023-08-08', start: at('2023-05-08T00:00Z'), end: at('2023-08-09T00:00Z'),
    });
    expect(only("I can't come in 3 days").iso).to.equal('2023-05-11');
    expect(only('last summer')).to.include({ iso: '2022-06/2022-08', start: at('2022-06-01T00:00Z'), end: at('2022-09-01T00:00Z') });
    expect(only('last winter').iso).to.equal('2022-12/2023-02');
    expect(only('this summer').iso).to.equal('2023-06/2023-08');
    expect(only('from 2019 to 2021')).to.include({ text: '2019 to 2021', iso: '2019/2021', relative: false });
    expect(only('back in 2019')).to.include({ text: '2019', iso: '2019', relative: false });
    expect(only('this year')).to.include({ iso: '2023', relative: true });
    // Wednesday 6 January 2021: the week before is 2020's 53rd.
    expect(only('last week', 'UTC', at('2021-01-06T10:00Z'))).to.include({
      iso: '2020-W53', start: at('2020-12-28T00:00Z'), end: at('2021-01-04T00:00Z'),
    });
  });

  it('reads parts of a day as the date, with the span of that part', () => {
    expect(only('this morning')).to.include({ iso: '2023-05-08', start: at('2023-05-08T06:00Z'), end: at('2023-05-08T12:00Z') });
    expect(only('Friday night')).to.include({ iso: '2023-05-05', start: at('2023-05-05T18:00Z'), end: at('2023-05-06T06:00Z') });
    expect(only('tonight')).to.include({ iso: '2023-05-08', start: at('2023-05-08T18:00Z') });
  });

  describe('false positives', () => {
    const plain = [
      'May I help you?', "I'll march on", 'a second opinion', 'I sat down under the sun', 'April said hi',
      'She is June', 'We were 4 people at 10 tables', 'Two days later we left', 'I will be back in a minute',
      'I am at home right now', 'We planned a weekend trip', 'In the morning I run', 'the last day of school',
      'up to 2000 people came', '3 days after the party', "I've known them for 4 years",
      "We haven't talked in a few days", 'The next day we went home',
    ];
    for (const text of plain) {
      it(`leaves "${text}" alone`, () => {
        expect(resolve(text)).to.deep.equal({ resolvedText: text, mentions: [] });
      });
    }

    it('still finds the real reference next to a look-alike', () => {
      const { resolvedText, mentions } = resolve('We wed in June, and I may go in May');
      expect(mentions.map((m) => m.text)).to.deep.equal(['June', 'May']);
      expect(resolvedText).to.equal('We wed in 2023-06, and I may go in 2023-05');
    });
  });

  describe('time zones', () => {
    // 2023-05-08T02:00Z is still Sunday 7 May, 22:00 in New York.
    const newYorkRef = at('2023-05-08T02:00Z');
    it('resolves against the local date in America/New_York', () => {
      expect(only('today', 'America/New_York', newYorkRef)).to.include({
        iso: '2023-05-07', start: at('2023-05-07T04:00Z'), end: at('2023-05-08T04:00Z'),
      });
      expect(only('yesterday', 'America/New_York', newYorkRef).iso).to.equal('2023-05-06');
      expect(only('tomorrow at 5pm', 'America/New_York', newYorkRef)).to.include({
        iso: '2023-05-08T17:00:00-04:00', start: at('2023-05-08T21:00Z'),
      });
      expect(only('last night', 'America/New_York', newYorkRef)).to.include({
        iso: '2023-05-06', start: at('2023-05-06T22:00Z'),
      });
    });

    // 2023-05-08T20:00Z is already Tuesday 9 May, 05:00 in Tokyo.
    const tokyoRef = at('2023-05-08T20:00Z');
    it('resolves against the local date in Asia/Tokyo', () => {
      expect(only('yesterday', 'Asia/Tokyo', tokyoRef)).to.include({
        iso: '2023-05-08', start: at('2023-05-07T15:00Z'), end: at('2023-05-08T15:00Z'),
      });
      expect(only('today', 'Asia/Tokyo', tokyoRef).iso).to.equal('2023-05-09');
      expect(only('tomorrow at 5pm', 'Asia/Tokyo', tokyoRef).iso).to.equal('2023-05-10T17:00:00+09:00');
      expect(only('last week', 'Asia/Tokyo', tokyoRef)).to.include({ iso: '2023-W18', start: at('2023-04-30T15:00Z') });
    });

    // Saturday 25 March 2023, 21:00 in Berlin; clocks go from 02:00 CET to 03:00 CEST that night.
    const berlinRef = at('2023-03-25T20:00Z');
    it('uses the offset in force on the resolved date across a DST change', () => {
      expect(only('tomorrow at 5pm', 'Europe/Berlin', berlinRef)).to.include({
        iso: '2023-03-26T17:00:00+02:00', start: at('2023-03-26T15:00Z'),
      });
      expect(only('tomorrow', 'Europe/Berlin', berlinRef)).to.include({
        start: at('2023-03-25T23:00Z'), end: at('2023-03-26T22:00Z'),
      });
      expect(only('in 2 hours', 'Europe/Berlin', berlinRef).iso).to.equal('2023-03-25T23:00:00+01:00');
      // 02:30 never happens that night: it is read as 03:30 summer time.
      expect(only('tomorrow at 2:30am', 'Europe/Berlin', berlinRef).iso).to.equal('2023-03-26T03:30:00+02:00');
    });

    it('takes the first of a repeated hour and a 25-hour day when clocks go back (New York)', () => {
      const ref = at('2023-11-04T16:00Z');
      expect(only('tomorrow', 'America/New_York', ref)).to.include({
        start: at('2023-11-05T04:00Z'), end: at('2023-11-06T05:00Z'),
      });
      expect(only('tomorrow at 1:30am', 'America/New_York', ref).iso).to.equal('2023-11-05T01:30:00-04:00');
    });

    it('treats a missing zone as UTC and rejects an unknown one', () => {
      expect(only('yesterday', null).start).to.equal(at('2023-05-07T00:00Z'));
      expect(() => resolve('yesterday', 'Mars/Olympus')).to.throw(MemoryServiceError).with.property('code', 'TEMPORAL.INVALID_TIME_ZONE');
    });
  });

  it('rejects a reference time that is not epoch milliseconds', () => {
    expect(() => resolveTimeReferences('yesterday', { referenceTime: Number.NaN }))
      .to.throw(MemoryServiceError).with.property('code', 'TEMPORAL.INVALID_REFERENCE_TIME');
  });

  it('depends only on its arguments', () => {
    const text = 'Yesterday I said we would meet next Friday at 7pm, last week was hard.';
    expect(resolve(text, 'Europe/Paris')).to.deep.equal(resolve(text, 'Europe/Paris'));
    expect(resolve(text, 'UTC', at('2024-01-10T12:00Z')).mentions[0]?.iso).to.equal('2024-01-09');
  });
});
