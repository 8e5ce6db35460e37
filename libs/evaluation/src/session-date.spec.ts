import { expect } from 'chai';
import { parseSessionDateTime, sessionTimestamp } from './session-date.js';

describe('LoCoMo session dates', () => {
  it('reads the wall time as UTC', () => {
    expect(sessionTimestamp('1:56 pm on 8 May, 2023')).to.equal('2023-05-08T13:56:00.000Z');
    expect(sessionTimestamp('10:37 am on 27 June, 2023')).to.equal('2023-06-27T10:37:00.000Z');
  });

  it('makes 12 am midnight and 12 pm noon', () => {
    expect(sessionTimestamp('12:48 am on 1 February, 2023')).to.equal('2023-02-01T00:48:00.000Z');
    expect(sessionTimestamp('12:05 pm on 1 February, 2023')).to.equal('2023-02-01T12:05:00.000Z');
  });

  it('takes short month names, any case, and no comma', () => {
    expect(sessionTimestamp('7:31 PM on 21 Jan 2022')).to.equal('2022-01-21T19:31:00.000Z');
    expect(sessionTimestamp('9:00 am on 3 Sept, 2022')).to.equal('2022-09-03T09:00:00.000Z');
  });

  it('refuses dates that do not exist and other shapes, saying what it expects', () => {
    for (const bad of ['3:00 pm on 31 June, 2023', '13:00 pm on 1 May, 2023', '1:00 pm on 1 Smarch, 2023', '2023-05-08T13:56:00Z', '']) {
      expect(() => parseSessionDateTime(bad), bad).to.throw(/expected e\.g\. "1:56 pm on 8 May, 2023"/);
    }
  });
});
