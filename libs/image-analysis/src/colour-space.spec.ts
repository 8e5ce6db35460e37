import { expect } from 'chai';
import { hexOf, oklabToSrgb, srgbToOklab } from './colour-space.js';

describe('OKLab conversion', () => {
  it('matches the published values for white and the primaries', () => {
    const white = srgbToOklab(255, 255, 255);
    expect(white.l).to.be.closeTo(1, 1e-4);
    expect(Math.hypot(white.a, white.b)).to.be.below(1e-4);
    const red = srgbToOklab(255, 0, 0);
    expect([red.l, red.a, red.b].map((v) => +v.toFixed(3))).to.deep.equal([0.628, 0.225, 0.126]);
  });

  it('round-trips every 8-bit grey and a spread of colours exactly', () => {
    for (let v = 0; v < 256; v += 1) expect(oklabToSrgb(srgbToOklab(v, v, v))).to.deep.equal([v, v, v]);
    for (const [r, g, b] of [[12, 200, 99], [255, 128, 0], [3, 4, 250]] as const) expect(oklabToSrgb(srgbToOklab(r, g, b))).to.deep.equal([r, g, b]);
  });

  it('formats hex with two digits a channel', () => {
    expect(hexOf([1, 171, 255])).to.equal('#01abff');
  });
});
