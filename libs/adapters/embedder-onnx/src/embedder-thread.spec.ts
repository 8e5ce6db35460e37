import { expect } from 'chai';
import { MemoryServiceError } from '@memory/platform';
import { EmbedderThread } from './embedder-thread.js';
import { createOnnxEmbedder, type OnnxEmbedder } from './onnx-embedder.js';

const SENTENCES = [
  'I adopted a puppy from the shelter on Saturday',
  'Our team shipped the billing dashboard last Friday',
  'The dentist said my tooth needs a crown next month',
  'We booked a flight to Lisbon for the conference in May',
];

// Real model in a real worker thread, compared with the same model run in this thread.
describe('EmbedderThread (bge-small in a worker thread)', () => {
  let thread: EmbedderThread;
  let inProcess: OnnxEmbedder;

  before(async () => {
    [thread, inProcess] = await Promise.all([EmbedderThread.start({ threads: 1 }), createOnnxEmbedder({ threads: 1 })]);
  });
  after(async () => {
    await Promise.all([thread?.close(), inProcess?.close()]);
  });

  it('gives exactly the vectors of the in-process embedder, for passages and queries, in order', async () => {
    for (const purpose of ['passage', 'query'] as const) {
      const [mine, theirs] = await Promise.all([thread.embed(SENTENCES, purpose), inProcess.embed(SENTENCES, purpose)]);
      expect(mine).to.have.length(SENTENCES.length);
      mine.forEach((vector, i) => expect(Array.from(vector)).to.deep.equal(Array.from(theirs[i]!)));
    }
    expect(thread.model).to.deep.equal(inProcess.model);
    expect(await thread.embed([], 'passage')).to.deep.equal([]);
  });

  it('answers concurrent calls each with its own vectors', async () => {
    const alone = await Promise.all(SENTENCES.map((text) => inProcess.embed([text], 'passage')));
    const together = await Promise.all(SENTENCES.map((text) => thread.embed([text], 'passage')));
    together.forEach(([vector], i) => expect(Array.from(vector!)).to.deep.equal(Array.from(alone[i]![0]!)));
  });

  it('runs a query before the passages queued ahead of it, after at most the call already running', async () => {
    const finished: string[] = [];
    const passages = SENTENCES.concat(SENTENCES).map((text, i) => thread.embed([text], 'passage').then(() => finished.push(`passage ${i}`)));
    const query = thread.embed(['where did I fly in May?'], 'query').then(() => finished.push('query'));
    await Promise.all([...passages, query]);
    expect(finished.indexOf('query')).to.be.at.most(1);
    expect(finished.filter((name) => name !== 'query')).to.deep.equal(SENTENCES.concat(SENTENCES).map((_, i) => `passage ${i}`));
  });

  it('answers a query between the passages of a long call, and gives that call the vectors it would get whole', async () => {
    const texts = Array.from({ length: 48 }, (_, i) => `${SENTENCES[i % 4]} (${i})`);
    const finished: string[] = [];
    const passages = thread.embed(texts, 'passage').then((vectors) => (finished.push('passages'), vectors));
    await new Promise((resolve) => setTimeout(resolve, 30)); // the long call is under way
    const query = thread.embed(['where did I fly in May?'], 'query').then(() => finished.push('query'));
    const [vectors] = await Promise.all([passages, query]);
    expect(finished).to.deep.equal(['query', 'passages']);
    const whole = await inProcess.embed(texts, 'passage');
    vectors.forEach((vector, i) => expect(Array.from(vector)).to.deep.equal(Array.from(whole[i]!)));
  });

  it('gives a short passage call a turn before the long calls under way, which then finish oldest first', async () => {
    const long = (tag: string) => Array.from({ length: 40 }, (_, i) => `${SENTENCES[i % 4]} (${tag} ${i})`);
    const finished: string[] = [];
    const first = thread.embed(long('first'), 'passage').then(() => finished.push('first'));
    const second = thread.embed(long('second'), 'passage').then(() => finished.push('second'));
    await new Promise((resolve) => setTimeout(resolve, 30)); // both long calls have had their first turn
    const short = thread.embed([SENTENCES[0]!], 'passage').then((vectors) => (finished.push('short'), vectors));
    const [, , [vector]] = await Promise.all([first, second, short]);
    expect(finished).to.deep.equal(['short', 'first', 'second']);
    expect(Array.from(vector!)).to.deep.equal(Array.from((await inProcess.embed([SENTENCES[0]!], 'passage'))[0]!));
  });

  it('keeps this thread free while the model works', async () => {
    // Counting event-loop turns, not timing: with the model on this thread, a call is one turn that blocks.
    let turns = 0;
    let counting = true;
    const tick = () => {
      turns++;
      if (counting) setImmediate(tick);
    };
    setImmediate(tick);
    await thread.embed(Array.from({ length: 24 }, (_, i) => `${SENTENCES[i % 4]} (${i})`), 'passage');
    counting = false;
    // In this thread the 24 calls would allow about one turn each; in a worker the loop turns freely.
    expect(turns).to.be.greaterThan(24 * 10);
  });

  it('hands a call to the worker at once, not after the caller\'s next synchronous work', async () => {
    let resolved = false;
    const call = thread.embed(Array.from({ length: 24 }, (_, i) => `${SENTENCES[i % 4]} (${i})`), 'passage').then(() => (resolved = true));
    // Block this thread without using a core (as the enricher does when it enriches its next slices), far longer
    // than the model needs for the call: a call posted only afterwards would still take that long after it.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 3_000);
    let turns = 0;
    while (!resolved && turns < 1_000) {
      await new Promise((resolve) => setImmediate(resolve));
      turns++;
    }
    await call;
    expect(turns).to.be.at.most(3);
  });

  it('passes the worker\'s own error on when the model cannot load', async () => {
    const error = await EmbedderThread.start({ modelDir: '/nonexistent/model-dir' }).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(MemoryServiceError);
    expect((error as MemoryServiceError).code).to.equal('EMBEDDER.MODEL_MISSING');
  });

  it('refuses bad options before starting a worker', async () => {
    const error = await EmbedderThread.start({ threads: 0 }).catch((e: unknown) => e);
    expect((error as MemoryServiceError).code).to.equal('CONFIG.INVALID');
  });

  it('finishes calls already sent when closed, then refuses work', async () => {
    const other = await EmbedderThread.start({ threads: 1 });
    const sent = other.embed(SENTENCES, 'passage');
    await other.close();
    expect(await sent).to.have.length(SENTENCES.length);
    const error = await other.embed(['late'], 'passage').catch((e: unknown) => e);
    expect((error as MemoryServiceError).code).to.equal('EMBEDDER.CLOSED');
  });
});
