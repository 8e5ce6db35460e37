import { expect } from 'chai';
import { Keyring, type DataKeyStore, type KeyRequest, type KeySubject } from './key-store.js';

/** A store that keeps keys in a Map and counts its writes: what the Keyring is tested over. */
function countingStore(forgotten: Set<string> = new Set()) {
  const keys = new Map<string, Buffer>();
  const calls: number[] = [];
  const reads: number[] = [];
  const store = {
    async create(requests: KeyRequest[]) {
      calls.push(requests.length);
      await new Promise((r) => setTimeout(r, 5));
      return requests.map(({ keyId, key }) => {
        if (forgotten.has(keyId)) return null;
        if (!keys.has(keyId)) keys.set(keyId, key);
        return keys.get(keyId)!;
      });
    },
    async get(_scope: unknown, ids: string[]) {
      return new Map(ids.filter((id) => keys.has(id)).map((id) => [id, keys.get(id)!]));
    },
    async erasedAmong(subjects: KeySubject[]) {
      reads.push(subjects.length);
      await new Promise((r) => setTimeout(r, 5));
      return subjects.map(({ scope, keyId }) => forgotten.has(keyId) || forgotten.has(`${scope.endUserId}/${keyId}`));
    },
  } as unknown as DataKeyStore;
  return { store, calls, reads };
}

describe('Keyring', () => {
  it('writes the keys asked for concurrently in few grouped creates, one key per subject', async () => {
    const { store, calls } = countingStore();
    const keyring = new Keyring(store);
    const keys = await Promise.all(Array.from({ length: 50 }, (_, i) => keyring.keyFor('acme', `user-${i % 5}`, `job_${i % 10}_x`)));
    expect(calls.length).to.be.at.most(2);
    expect(calls.reduce((a, b) => a + b, 0)).to.equal(50);
    expect(keys[0]!.equals(keys[10]!)).to.equal(true);
    expect(await keyring.keyFor('acme', 'user-0', 'job_0_x')).to.equal(keys[0]);
  });

  it('refuses a forgotten subject with KEY.FORGOTTEN, without failing the others of its group', async () => {
    const { store } = countingStore(new Set(['job_gone_x']));
    const keyring = new Keyring(store);
    const [gone, kept] = await Promise.allSettled([keyring.keyFor('acme', 'u', 'job_gone_x'), keyring.keyFor('acme', 'u', 'job_kept_x')]);
    expect(gone.status === 'rejected' && (gone.reason as { code?: string }).code).to.equal('KEY.FORGOTTEN');
    expect(kept.status).to.equal('fulfilled');
  });

  it('claims an id for the process whose key is stored first: the other is told it is taken, a forgotten one so', async () => {
    const { store, calls } = countingStore(new Set(['job_gone_x']));
    // Two processes over one store, claiming the same ids at once.
    const [first, second] = [new Keyring(store), new Keyring(store)];
    const outcomes = await Promise.all([first.claim('acme', 'u', 'job_1_x'), second.claim('acme', 'u', 'job_1_x')]);
    expect([...outcomes].sort()).to.deep.equal(['claimed', 'taken']);
    const winner = outcomes[0] === 'claimed' ? first : second;
    const writes = calls.length;
    const claimedKey = await winner.keyFor('acme', 'u', 'job_1_x');
    expect(calls.length, 'the claimed key is kept for the records sealed next').to.equal(writes);
    expect(claimedKey.equals((await store.get({ tenantId: 'acme', endUserId: 'u' }, ['job_1_x'])).get('job_1_x')!)).to.equal(true);
    expect(await first.claim('acme', 'u', 'job_gone_x')).to.equal('forgotten');
  });

  it('reads whether subjects were erased in few grouped reads over end users, each answered as its own', async () => {
    const { store, reads } = countingStore(new Set(['user-1/job_3_x']));
    const keyring = new Keyring(store);
    const asked = Array.from({ length: 30 }, (_, i) => ({ endUserId: `user-${i % 3}`, keyId: `job_${i % 5}_x` }));
    const answers = await Promise.all(asked.map(({ endUserId, keyId }) => keyring.isErased({ tenantId: 'acme', endUserId }, keyId)));
    expect(reads.length).to.be.at.most(2);
    expect(reads.reduce((a, b) => a + b, 0)).to.equal(30);
    expect(asked.filter((_, i) => answers[i])).to.deep.equal(asked.filter(({ endUserId, keyId }) => endUserId === 'user-1' && keyId === 'job_3_x'));
  });

  it('keeps a key no longer than cacheMs, even one never asked for again', async () => {
    const { store } = countingStore();
    let now = 0;
    const keyring = new Keyring(store, { cacheMs: 1_000, now: () => now });
    await Promise.all(Array.from({ length: 20 }, (_, i) => keyring.keyFor('acme', 'u', `job_${i}_x`)));
    expect(keyring.cachedKeys).to.equal(20);
    now = 500;
    await keyring.keyFor('acme', 'u', 'job_late_x');
    expect(keyring.cachedKeys, 'none expired yet').to.equal(21);
    now = 1_200;
    await keyring.existingKey('acme', 'u', 'job_late_x');
    await keyring.keyFor('acme', 'u', 'job_new_x');
    expect(keyring.cachedKeys, 'the 20 read once are gone; the late one and the new one stay').to.equal(2);
  });
});
