import { chromaOf, hueOf, type Oklab } from './colour-space.js';

/**
 * Coarse colour words for text search ("red car", "dark blue dress"), from OKLab lightness, chroma and hue.
 * Whether a colour is "dark" or "light" depends on its hue: pure blue is much darker than pure yellow, so the
 * reference is the lightness of the most saturated sRGB colour at that hue (the cusp), interpolated between the
 * six primaries and secondaries.
 */
export const COLOUR_WORDS = [
  'black', 'dark grey', 'grey', 'light grey', 'white',
  'red', 'dark red', 'pink', 'orange', 'brown', 'beige', 'yellow', 'olive', 'light yellow',
  'green', 'dark green', 'light green', 'cyan', 'teal', 'light cyan', 'blue', 'dark blue', 'light blue',
  'purple', 'dark purple', 'light purple',
] as const;
export type ColourWord = (typeof COLOUR_WORDS)[number];

type Family = 'red' | 'orange' | 'yellow' | 'green' | 'cyan' | 'blue' | 'purple' | 'pink';

/** Hue ranges in OKLab degrees; pink wraps through 0. */
const FAMILIES: ReadonlyArray<readonly [from: number, to: number, family: Family]> = [
  [15, 45, 'red'],
  [45, 75, 'orange'],
  [75, 120, 'yellow'],
  [120, 175, 'green'],
  [175, 210, 'cyan'],
  [210, 290, 'blue'],
  [290, 340, 'purple'],
];

/** [hue, lightness] of red, yellow, green, cyan, blue, magenta at full saturation. */
const CUSPS: ReadonlyArray<readonly [number, number]> = [
  [29.2, 0.628],
  [109.8, 0.968],
  [142.5, 0.866],
  [194.8, 0.905],
  [264.1, 0.452],
  [328.4, 0.702],
];

const ACHROMATIC_CHROMA = 0.035;

export function colourName(lab: Oklab): ColourWord {
  const chroma = chromaOf(lab);
  if (chroma < ACHROMATIC_CHROMA || (lab.l < 0.18 && chroma < 0.1)) return greyName(lab.l);
  const hue = hueOf(lab);
  const family = familyOf(hue);
  const cusp = cuspLightness(hue);
  const dark = lab.l < 0.65 * cusp;
  const light = lab.l > cusp + 0.4 * (1 - cusp);
  switch (family) {
    case 'red':
      if (light) return 'pink';
      if (dark) return chroma < 0.1 ? 'brown' : 'dark red';
      return 'red';
    case 'pink':
      return dark ? 'dark red' : 'pink';
    case 'orange':
      if (dark || (lab.l < 0.8 * cusp && chroma < 0.14)) return 'brown';
      if (light || (lab.l > 0.75 && chroma < 0.09)) return 'beige';
      return 'orange';
    case 'yellow':
      if (dark) return 'olive';
      if (lab.l > 0.75 && chroma < 0.09) return 'beige';
      return light ? 'light yellow' : 'yellow';
    case 'cyan':
      if (dark) return 'teal';
      return light ? 'light cyan' : 'cyan';
    case 'green':
    case 'blue':
    case 'purple':
      return dark ? `dark ${family}` : light ? `light ${family}` : family;
  }
}

function greyName(lightness: number): ColourWord {
  if (lightness < 0.25) return 'black';
  if (lightness < 0.5) return 'dark grey';
  if (lightness < 0.75) return 'grey';
  if (lightness < 0.92) return 'light grey';
  return 'white';
}

function familyOf(hue: number): Family {
  for (const [from, to, family] of FAMILIES) if (hue >= from && hue < to) return family;
  return 'pink';
}

function cuspLightness(hue: number): number {
  for (let i = 0; i < CUSPS.length; i++) {
    const [h0, l0] = CUSPS[i] ?? [0, 0];
    const [h1, l1] = CUSPS[(i + 1) % CUSPS.length] ?? [0, 0];
    const span = (h1 - h0 + 360) % 360;
    const offset = (hue - h0 + 360) % 360;
    if (offset <= span) return l0 + ((l1 - l0) * offset) / span;
  }
  return 0.7;
}
