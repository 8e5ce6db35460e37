import { expect } from 'chai';
import { eventRelativeRange, findEventRelativeTime } from './relative-to-event.js';

describe('time relative to an event', () => {
  it('reads amount, unit, direction and the event words', () => {
    expect(findEventRelativeTime('What did I buy two days before the wedding?')).to.deep.include({ amount: 2, unit: 'day', direction: -1, event: 'wedding' });
    expect(findEventRelativeTime('where was I a week after my knee surgery')).to.deep.include({ amount: 1, unit: 'week', direction: 1, event: 'knee surgery' });
    expect(findEventRelativeTime('the day before the party, what happened?')).to.deep.include({ amount: 1, unit: 'day', event: 'party' });
    expect(findEventRelativeTime('3 months after our move to Lisbon')).to.deep.include({ amount: 3, unit: 'month', event: 'move to Lisbon' });
    expect(findEventRelativeTime('what did I do last week')).to.equal(null);
  });

  it('says where the event words start, so a date after them is read whole ("August 3, 2023")', () => {
    const query = 'What did John do the week before August 3, 2023 with his kids?';
    const found = findEventRelativeTime(query)!;
    expect(found.event).to.equal('August 3');
    expect(query.slice(found.eventIndex)).to.equal('August 3, 2023 with his kids?');
    expect(findEventRelativeTime('two days before   the wedding')!.eventIndex).to.equal('two days before   the '.length);
  });

  it('covers the shifted day, or one unit around the shifted moment', () => {
    const wedding = Date.UTC(2024, 5, 14, 15);
    expect(eventRelativeRange({ amount: 2, unit: 'day', direction: -1 }, wedding)).to.deep.equal({ from: Date.UTC(2024, 5, 12), to: Date.UTC(2024, 5, 13) });
    const week = eventRelativeRange({ amount: 1, unit: 'week', direction: 1 }, wedding);
    expect((week.from + week.to) / 2).to.equal(wedding + 7 * 86_400_000);
  });
});
