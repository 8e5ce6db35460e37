import { expect } from 'chai';
import type { Client } from '@elastic/elasticsearch';
import { DelayedExpunge } from './delayed-expunge.js';

/** A client whose only call, forcemerge, records when it was asked and with what. */
function recordingClient() {
  const merges: Array<{ at: number; request: unknown }> = [];
  const client = { indices: { forcemerge: async (request: unknown) => void merges.push({ at: Date.now(), request }) } } as unknown as Pick<Client, 'indices'>;
  return { client, merges };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('DelayedExpunge', () => {
  it('asks for one expunging merge of the index a delay after a deletion', async () => {
    const { client, merges } = recordingClient();
    const expunge = new DelayedExpunge(client, 'p-memories', 60);
    const deletedAt = Date.now();
    expunge.schedule();
    await sleep(40);
    expect(merges).to.have.length(0);
    await sleep(80);
    expect(merges.map((merge) => merge.request)).to.deep.equal([{ index: 'p-memories', only_expunge_deletes: true }]);
    expect(merges[0]!.at - deletedAt).to.be.at.least(55);
    await sleep(100);
    expect(merges, 'nothing more without another deletion').to.have.length(1);
  });

  it('covers deletions that never pause: a merge every delay, and one a delay after the last', async () => {
    const { client, merges } = recordingClient();
    const expunge = new DelayedExpunge(client, 'p-keys', 50);
    const started = Date.now();
    let lastDeletion = started;
    while (Date.now() - started < 260) {
      expunge.schedule();
      lastDeletion = Date.now();
      await sleep(10);
    }
    expect(merges.length, 'merges while the deletions went on').to.be.within(3, 6);
    await sleep(150);
    const last = merges[merges.length - 1]!;
    expect(last.at - lastDeletion, 'the last merge comes a delay after the last deletion, or later').to.be.at.least(45);
    const gaps = merges.slice(1).map((merge, i) => merge.at - merges[i]!.at);
    expect(Math.min(...gaps), 'never more than one merge a delay').to.be.at.least(45);
  });

  it('asks for nothing once cancelled', async () => {
    const { client, merges } = recordingClient();
    const expunge = new DelayedExpunge(client, 'p-memories', 30);
    expunge.schedule();
    expunge.schedule();
    expunge.cancel();
    await sleep(100);
    expect(merges).to.have.length(0);
  });
});
