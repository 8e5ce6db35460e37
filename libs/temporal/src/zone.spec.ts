import { expect } from 'chai';
import { formatInstant, normaliseTimeZone, offsetMinutesAt, wallToEpoch } from './zone.js';

const at = (iso: string) => Date.parse(iso);
const wall = (year: number, month: number, day: number, hour: number, minute = 0) =>
  ({ year, month, day, hour, minute, second: 0, millisecond: 0 });

describe('zone arithmetic', () => {
  it('reads the offset in force at an instant', () => {
    expect(offsetMinutesAt(at('2023-01-15T12:00Z'), 'Europe/Berlin')).to.equal(60);
    expect(offsetMinutesAt(at('2023-07-15T12:00Z'), 'Europe/Berlin')).to.equal(120);
    expect(offsetMinutesAt(at('2023-07-15T12:00Z'), 'America/New_York')).to.equal(-240);
    expect(offsetMinutesAt(at('2023-07-15T12:00Z'), 'Asia/Kolkata')).to.equal(330);
    expect(offsetMinutesAt(at('2023-07-15T12:00Z'), 'UTC')).to.equal(0);
  });

  it('turns wall-clock readings into instants, through DST gaps and overlaps', () => {
    expect(wallToEpoch(wall(2023, 5, 8, 17), 'Europe/Berlin')).to.equal(at('2023-05-08T15:00Z'));
    expect(wallToEpoch(wall(2023, 3, 12, 2, 30), 'America/New_York')).to.equal(at('2023-03-12T07:30Z'));
    expect(wallToEpoch(wall(2023, 11, 5, 1, 30), 'America/New_York')).to.equal(at('2023-11-05T05:30Z'));
  });

  it('formats instants with the offset of their date, Z for zero', () => {
    expect(formatInstant(at('2023-05-09T15:00Z'), 'Europe/Berlin')).to.equal('2023-05-09T17:00:00+02:00');
    expect(formatInstant(at('2023-05-09T15:00Z'), 'Asia/Kolkata')).to.equal('2023-05-09T20:30:00+05:30');
    expect(formatInstant(at('2023-01-09T15:00Z'), 'Europe/London')).to.equal('2023-01-09T15:00:00Z');
  });

  it('canonicalises zone names', () => {
    expect(normaliseTimeZone(null)).to.equal('UTC');
    expect(normaliseTimeZone('  ')).to.equal('UTC');
    expect(normaliseTimeZone('asia/tokyo')).to.equal('Asia/Tokyo');
  });
});
