import { expect } from 'chai';
import { rasterToOklab } from './colour-space.js';
import { dominantColours, MAX_DOMINANT_COLOURS } from './dominant-colours.js';

function raster(width: number, height: number, colourAt: (x: number, y: number) => [number, number, number]) {
  const rgb = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) rgb.set(colourAt(x, y), (y * width + x) * 3);
  return rasterToOklab(rgb, width * height);
}

describe('dominantColours', () => {
  it('finds one colour with the whole share in a flat image', () => {
    expect(dominantColours(raster(64, 64, () => [250, 120, 10]))).to.deep.equal([{ hex: '#fa780a', share: 1, name: 'orange' }]);
  });

  it('splits three bands by area, largest first', () => {
    const colours = dominantColours(raster(64, 64, (x) => (x < 32 ? [20, 40, 160] : x < 48 ? [240, 240, 240] : [200, 30, 30])));
    // Equal shares are ordered by hex, so the order never depends on the clustering's path.
    expect(colours.map((c) => c.name)).to.deep.equal(['blue', 'red', 'white']);
    expect(colours.map((c) => c.share)).to.deep.equal([0.5, 0.25, 0.25]);
  });

  it('folds specks and near-identical shades into the colours around them', () => {
    // Noise of +-6 per channel is one colour to a person; 1% specks are not a colour at all.
    const colours = dominantColours(
      raster(64, 64, (x, y) => ((x * 7 + y * 13) % 97 === 0 ? [255, 255, 0] : x < 32 ? [200 + ((x * y) % 13) - 6, 20, 20] : [20, 150 + ((x + y) % 13) - 6, 40])),
    );
    expect(colours.map((c) => c.name)).to.deep.equal(['green', 'red']);
    expect(colours.reduce((sum, c) => sum + c.share, 0)).to.be.closeTo(1, 1e-6);
  });

  it('reports at most five colours, shares summing to one', () => {
    const rainbow = dominantColours(raster(64, 64, (x, y) => [(x * 4) % 256, (y * 4) % 256, ((x + y) * 2) % 256]));
    expect(rainbow.length).to.be.within(3, MAX_DOMINANT_COLOURS);
    expect(rainbow.reduce((sum, c) => sum + c.share, 0)).to.be.closeTo(1, 1e-3);
    for (const colour of rainbow) expect(colour.hex).to.match(/^#[0-9a-f]{6}$/);
  });
});
