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
      from: at('2023-05-01T00:00Z'), to: at('2023-05-08T00:00Z'), text: 'last week',
    });
  });

  it('covers a month named with its year', () => {
    expect(range('trips in May 2023')).to.deep.equal({
      from: at('2023-05-01T00:00Z'), to: at('2023-06-01T00:00Z'), text: 'May 2023',
    });
  });

  it('covers one day for "yesterday", in the user zone', () => {
    expect(range('yesterday')).to.deep.equal({ from: at('2023-05-07T00:00Z'), to: at('2023-05-08T00:00Z'), text: 'yesterday' });
    expect(range('what happened yesterday', 'America/New_York', at('2023-05-08T02:00Z'))).to.deep.equal({
      from: at('2023-05-06T04:00Z'), to: at('2023-05-07T04:00Z'), text: 'yesterday',
    });
  });

  it('covers a range written with between ... and, taking the year from its end', () => {
    expect(range('what did I read between March and June 2022')).to.deep.equal({
      from: at('2022-03-01T00:00Z'), to: at('2022-07-01T00:00Z'), text: 'March and June 2022',
    });
  });

  it('spans every reference of the query', () => {
    expect(range('concerts in May or July 2023')).to.deep.equal({
      from: at('2023-05-01T00:00Z'), to: at('2023-08-01T00:00Z'), text: 'May or July 2023',
    });
  });

  it('covers rolling windows up to the end of today', () => {
    expect(range('what did I eat in the past two weeks')).to.deep.equal({
      from: at('2023-04-24T00:00Z'), to: at('2023-05-09T00:00Z'), text: 'the past two weeks',
    });
  });

  it('is null when the query names no time', () => {
    expect(range('what is my favourite food')).to.equal(null);
    expect(range('May I ask about my trip to Paris?')).to.equal(null);
  });
});
