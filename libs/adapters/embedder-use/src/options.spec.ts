import { expect } from 'chai';
import { ConfigError } from '@memory/platform';
import { resolveUseEmbedderOptions } from './options.js';

describe('resolveUseEmbedderOptions', () => {
  it('embeds one text per model call by default', () => {
    expect(resolveUseEmbedderOptions()).to.deep.equal({ maxBatch: 1 });
    expect(resolveUseEmbedderOptions({ maxBatch: 16 })).to.deep.equal({ maxBatch: 16 });
  });

  it('rejects a batch size that is not a whole number from 1 to 1024', () => {
    for (const maxBatch of [0, -1, 1.5, 1025, Number.NaN]) {
      expect(() => resolveUseEmbedderOptions({ maxBatch }), String(maxBatch)).to.throw(ConfigError, /maxBatch/);
    }
  });
});
