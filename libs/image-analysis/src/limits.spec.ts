import { expect } from 'chai';
import { ConfigError } from '@memory/platform';
import { IMAGE_LIMITS, resolveImageLimits } from './limits.js';

describe('image limits', () => {
  it('documents 15 MiB, 50 megapixels and 20000 px a side as the defaults', () => {
    expect(IMAGE_LIMITS).to.deep.equal({ maxBytes: 15 * 1024 * 1024, maxPixels: 50_000_000, maxSide: 20_000 });
    expect(Object.isFrozen(IMAGE_LIMITS)).to.equal(true);
  });

  it('overrides only what is given', () => {
    expect(resolveImageLimits({ maxBytes: 1000, maxSide: undefined })).to.deep.equal({ ...IMAGE_LIMITS, maxBytes: 1000 });
  });

  it('refuses limits that are not positive whole numbers, naming them', () => {
    expect(() => resolveImageLimits({ maxPixels: 0, maxSide: 1.5 })).to.throw(ConfigError, /maxPixels, maxSide/);
  });
});
