import { expect } from 'chai';
import { currentRequestId, isRequestId, requestIdOf, withRequestId } from './request-context.js';
import { createLogger } from './logger.js';

describe('request ids', () => {
  it('keeps a client\'s id of 1-128 safe characters and replaces anything else by a UUID', () => {
    for (const kept of ['a', 'trace-42', 'client:trace/1+a=b', '0af7651916cd43dd8448eb211c80319c', 'x'.repeat(128)]) expect(requestIdOf(kept)).to.equal(kept);
    for (const replaced of [undefined, '', 'has spaces', 'x'.repeat(129), 'na%C3%AFve', '<script>', 'a\nb', ['a', 'b']]) {
      const id = requestIdOf(replaced);
      expect(id, String(replaced)).to.match(/^[0-9a-f-]{36}$/);
      expect(isRequestId(id)).to.equal(true);
    }
  });

  it('is current inside withRequestId, across awaits, and not outside or in an exited context', async () => {
    expect(currentRequestId()).to.equal(undefined);
    await withRequestId('outer', async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      expect(currentRequestId()).to.equal('outer');
      withRequestId(undefined, () => expect(currentRequestId()).to.equal(undefined));
    });
    expect(currentRequestId()).to.equal(undefined);
  });

  it('is written in every log line while current, and a line\'s own requestId wins', () => {
    const lines: string[] = [];
    const write = process.stderr.write;
    process.stderr.write = ((chunk: string) => { lines.push(chunk); return true; }) as typeof process.stderr.write;
    try {
      const logger = createLogger({ app: 'test' }, 'info');
      withRequestId('req-1', () => {
        logger.info('served');
        logger.info('about another record', { requestId: 'req-2' });
      });
      logger.info('outside');
    } finally {
      process.stderr.write = write;
    }
    expect(lines.map((line) => JSON.parse(line).requestId)).to.deep.equal(['req-1', 'req-2', undefined]);
  });
});
