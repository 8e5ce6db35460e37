import { expect } from 'chai';
import { addMonths, isoWeek } from './calendar.js';

describe('calendar arithmetic', () => {
  it('numbers ISO weeks by the year of their Thursday', () => {
    expect(isoWeek({ year: 2021, month: 1, day: 3 })).to.deep.equal({ year: 2020, week: 53 });
    expect(isoWeek({ year: 2024, month: 12, day: 30 })).to.deep.equal({ year: 2025, week: 1 });
    expect(isoWeek({ year: 2023, month: 5, day: 8 })).to.deep.equal({ year: 2023, week: 19 });
  });

  it('clamps the day when adding months', () => {
    expect(addMonths({ year: 2023, month: 1, day: 31 }, 1)).to.deep.equal({ year: 2023, month: 2, day: 28 });
    expect(addMonths({ year: 2023, month: 3, day: 15 }, -12)).to.deep.equal({ year: 2022, month: 3, day: 15 });
  });
});
