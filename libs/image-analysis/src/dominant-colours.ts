import { hexOf, oklabToSrgb, type Oklab } from './colour-space.js';
import { colourName, type ColourWord } from './colour-names.js';

export interface DominantColour {
  /** sRGB of the cluster's mean colour, '#rrggbb'. */
  hex: string;
  /** Fraction of the image's area; the shares of one image sum to 1. */
  share: number;
  name: ColourWord;
}

export const MAX_DOMINANT_COLOURS = 5;
/** Clusters smaller than this are anti-aliasing seams or specks, not colours anyone would name. */
const MIN_SHARE = 0.03;
/** Two clusters closer than this in OKLab look like one colour (about a just-noticeable difference x 2-3). */
const MERGE_DISTANCE = 0.06;
const MAX_ITERATIONS = 24;

interface Cluster {
  centre: Oklab;
  count: number;
}

/**
 * K-means in OKLab with a deterministic start: the most populated coarse colour bin first, then the bin that is
 * both populous and far from every chosen centre (k-means++ without the dice). Clusters that end up too close
 * are merged and tiny ones dropped, so a two-colour image yields two colours, not five.
 */
export function dominantColours(pixels: readonly Oklab[]): DominantColour[] {
  if (pixels.length === 0) return [];
  let centres = initialCentres(pixels);
  centres = lloyd(pixels, centres, MAX_ITERATIONS);
  let clusters = measure(pixels, centres);
  clusters = mergeClose(clusters);
  const kept = clusters.filter((cluster) => cluster.count / pixels.length >= MIN_SHARE);
  // Specks go to their nearest surviving colour, so the shares still cover the whole image.
  clusters = measure(pixels, lloyd(pixels, (kept.length ? kept : clusters).map((cluster) => cluster.centre), 1));
  return clusters
    .filter((cluster) => cluster.count > 0)
    .map((cluster) => {
      const hex = hexOf(oklabToSrgb(cluster.centre));
      return { hex, share: round4(cluster.count / pixels.length), name: colourName(cluster.centre) };
    })
    .sort((a, b) => b.share - a.share || a.hex.localeCompare(b.hex));
}

function initialCentres(pixels: readonly Oklab[]): Oklab[] {
  const bins = new Map<string, { count: number; l: number; a: number; b: number }>();
  for (const p of pixels) {
    const key = `${Math.floor(p.l * 10)}:${Math.floor(p.a * 20)}:${Math.floor(p.b * 20)}`;
    const bin = bins.get(key) ?? { count: 0, l: 0, a: 0, b: 0 };
    bin.count += 1;
    bin.l += p.l;
    bin.a += p.a;
    bin.b += p.b;
    bins.set(key, bin);
  }
  const candidates = [...bins.values()].map((bin) => ({ count: bin.count, mean: { l: bin.l / bin.count, a: bin.a / bin.count, b: bin.b / bin.count } }));
  const first = candidates.reduce((best, candidate) => (candidate.count > best.count ? candidate : best));
  const centres: Oklab[] = [first.mean];
  while (centres.length < MAX_DOMINANT_COLOURS) {
    let best: { score: number; mean: Oklab; distance: number } | null = null;
    for (const candidate of candidates) {
      const distance = Math.sqrt(nearest(candidate.mean, centres).distance2);
      const score = candidate.count * distance * distance;
      if (best === null || score > best.score) best = { score, mean: candidate.mean, distance };
    }
    if (best === null || best.distance < MERGE_DISTANCE) break;
    centres.push(best.mean);
  }
  return centres;
}

function lloyd(pixels: readonly Oklab[], start: readonly Oklab[], iterations: number): Oklab[] {
  let centres = [...start];
  let previous: Int32Array | null = null;
  for (let iteration = 0; iteration < iterations; iteration++) {
    const assignment = new Int32Array(pixels.length);
    const sums = centres.map(() => ({ count: 0, l: 0, a: 0, b: 0 }));
    pixels.forEach((p, i) => {
      const { index } = nearest(p, centres);
      assignment[i] = index;
      const sum = sums[index];
      if (!sum) return;
      sum.count += 1;
      sum.l += p.l;
      sum.a += p.a;
      sum.b += p.b;
    });
    centres = sums.map((sum, index) => (sum.count ? { l: sum.l / sum.count, a: sum.a / sum.count, b: sum.b / sum.count } : (centres[index] as Oklab)));
    if (previous && previous.every((value, i) => value === assignment[i])) break;
    previous = assignment;
  }
  return centres;
}

function measure(pixels: readonly Oklab[], centres: readonly Oklab[]): Cluster[] {
  const clusters = centres.map((centre) => ({ centre, count: 0 }));
  for (const p of pixels) {
    const cluster = clusters[nearest(p, centres).index];
    if (cluster) cluster.count += 1;
  }
  return clusters;
}

function mergeClose(start: Cluster[]): Cluster[] {
  const clusters = start.filter((cluster) => cluster.count > 0);
  for (;;) {
    let pair: [number, number] | null = null;
    let closest = MERGE_DISTANCE * MERGE_DISTANCE;
    for (let i = 0; i < clusters.length; i++) {
      for (let j = i + 1; j < clusters.length; j++) {
        const d2 = distance2((clusters[i] as Cluster).centre, (clusters[j] as Cluster).centre);
        if (d2 < closest) {
          closest = d2;
          pair = [i, j];
        }
      }
    }
    if (!pair) return clusters;
    const a = clusters[pair[0]] as Cluster;
    const b = clusters[pair[1]] as Cluster;
    const count = a.count + b.count;
    const mix = (x: number, y: number) => (x * a.count + y * b.count) / count;
    clusters[pair[0]] = { count, centre: { l: mix(a.centre.l, b.centre.l), a: mix(a.centre.a, b.centre.a), b: mix(a.centre.b, b.centre.b) } };
    clusters.splice(pair[1], 1);
  }
}

function nearest(p: Oklab, centres: readonly Oklab[]): { index: number; distance2: number } {
  let index = 0;
  let best = Infinity;
  centres.forEach((centre, i) => {
    const d2 = distance2(p, centre);
    if (d2 < best) {
      best = d2;
      index = i;
    }
  });
  return { index, distance2: best };
}

function distance2(p: Oklab, q: Oklab): number {
  return (p.l - q.l) ** 2 + (p.a - q.a) ** 2 + (p.b - q.b) ** 2;
}

function round4(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}
