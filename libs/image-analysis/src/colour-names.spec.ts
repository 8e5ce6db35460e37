import { expect } from 'chai';
import { colourName } from './colour-names.js';
import { srgbToOklab } from './colour-space.js';

function nameOf(hex: string): string {
  const value = parseInt(hex.slice(1), 16);
  return colourName(srgbToOklab(value >> 16, (value >> 8) & 255, value & 255));
}

describe('colourName', () => {
  const expected: Record<string, string> = {
    '#ff0000': 'red', '#dc143c': 'red', '#8b0000': 'dark red',
    '#ffc0cb': 'pink', '#ff69b4': 'pink',
    '#ffa500': 'orange', '#ff8c00': 'orange', '#8b4513': 'brown', '#5a2d0c': 'brown', '#d2b48c': 'beige',
    '#ffff00': 'yellow', '#ffd700': 'yellow', '#808000': 'olive',
    '#00ff00': 'green', '#3f9b3a': 'green', '#006400': 'dark green',
    '#00ffff': 'cyan', '#008080': 'teal',
    '#0000ff': 'blue', '#4169e1': 'blue', '#3b7dd8': 'blue', '#000080': 'dark blue', '#14213d': 'dark blue', '#add8e6': 'light blue',
    '#800080': 'dark purple', '#ff00ff': 'purple', '#4b0082': 'dark purple',
    '#000000': 'black', '#404040': 'dark grey', '#808080': 'grey', '#c0c0c0': 'light grey', '#ffffff': 'white', '#f4f1de': 'white',
  };
  for (const [hex, name] of Object.entries(expected)) {
    it(`calls ${hex} ${name}`, () => expect(nameOf(hex)).to.equal(name));
  }
});
