import { expect } from 'chai';
import { parseTimeRange } from './index.js';

// Monday 8 May 2023, 13:56 UTC.
const REF = Date.parse('2023-05-08T13:56:00Z');
const at = (iso: string) => Date.parse(iso);

function range(query: string, timeZone: string | null = 'UTC', referenceTime = REF) {
  return parseTimeRange(query, { referenceTime, timeZone });
}

describe('parseTimeRange', () => {
  it('covers the calendar week for "last week"', () => {
    expect(range('what did I do last week?')).to.deep.equal({
      from: at('2023-05-01T00:00Z'), to: at('2023-05-08T00:00Z'), text: 'last week', yearImplied: false,
    });
  });

  it('covers a month named with its year', () => {
    expect(range('trips in May 2023')).to.deep.equal({
      from: at('2023-05-01T00:00Z'), to: at('2023-06-01T00:00Z'), text: 'May 2023', yearImplied: false,
    });
  });

  it('covers one day for "yesterday", in the user zone', () => {
    expect(range('yesterday')).to.deep.equal({ from: at('2023-05-07T00:00Z'), to: at('2023-05-08T00:00Z'), text: 'yesterday', yearImplied: false });
    expect(range('what happened yesterday', 'America/New_York', at('2023-05-08T02:00Z'))).to.deep.equal({
      from: at('2023-05-06T04:00Z'), to: at('2023-05-07T04:00Z'), text: 'yesterday', yearImplied: false,
    });
  });

  it('covers a range written with between ... and, taking the year from its end', () => {
    expect(range('what did I read between March and June 2022')).to.deep.equal({
      from: at('2022-03-01T00:00Z'), to: at('2022-07-01T00:00Z'), text: 'March and June 2022', yearImplied: false,
    });
  });

  it('spans every reference of the query', () => {
    expect(range('concerts in May or July 2023')).to.deep.equal({
      from: at('2023-05-01T00:00Z'), to: at('2023-08-01T00:00Z'), text: 'May or July 2023', yearImplied: false,
    });
  });

  it('covers rolling windows up to the end of today', () => {
    expect(range('what did I eat in the past two weeks')).to.deep.equal({
      from: at('2023-04-24T00:00Z'), to: at('2023-05-09T00:00Z'), text: 'the past two weeks', yearImplied: false,
    });
  });

  it('reads words relative to a date the query writes out against that date, not against now', () => {
    expect(range('what did I do last weekend before April 11, 2022?')).to.deep.equal({
      from: at('2022-04-09T00:00Z'), to: at('2022-04-12T00:00Z'), text: 'last weekend before April 11, 2022', yearImplied: false,
    });
    expect(range('what went wrong last week, as I said on November 7, 2022?')).to.deep.include({ from: at('2022-10-31T00:00Z'), to: at('2022-11-08T00:00Z') });
    expect(range('the Sunday before October 25, 2022')).to.deep.include({ from: at('2022-10-23T00:00Z'), to: at('2022-10-26T00:00Z') });
    expect(range('concerts in May or July 2022')).to.deep.include({ from: at('2022-05-01T00:00Z'), to: at('2022-08-01T00:00Z') });
  });

  it('takes a month or day named without a year as the one that has begun, unless the query looks forward', () => {
    // Asked on Monday 8 May 2023: "December" is December 2022, "in June" June 2022, "May 3" this May.
    expect(range('what deal did I get in December?')).to.deep.equal({ from: at('2022-12-01T00:00Z'), to: at('2023-01-01T00:00Z'), text: 'December', yearImplied: true });
    expect(range('where did we camp in June')).to.deep.include({ from: at('2022-06-01T00:00Z'), yearImplied: true });
    expect(range('what did I cook on May 3')).to.deep.include({ from: at('2023-05-03T00:00Z'), yearImplied: true });
    expect(range('what will I do in June?')).to.deep.include({ from: at('2023-06-01T00:00Z'), yearImplied: true });
    expect(range('anything planned for June 20?')).to.deep.include({ from: at('2023-06-20T00:00Z') });
  });

  it('is null when the query names no time', () => {
    expect(range('what is my favourite food')).to.equal(null);
    expect(range('May I ask about my trip to Paris?')).to.equal(null);
  });
});
