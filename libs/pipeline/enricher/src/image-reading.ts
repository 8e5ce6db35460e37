import type { FilePool } from '@memory/file-pool';
import type { ImageFeatures } from '@memory/image-analysis';
import type { MemoryResolved, TimeMention } from '@memory/contracts';
import type { BlobStore } from '@memory/ports';
import { MemoryServiceError } from '@memory/platform';

/** What the enricher needs to read an image or PDF memory: the blob store its bytes are in, and the file workers. */
export interface ImageReadingDeps {
  blobs: BlobStore;
  files: Pick<FilePool, 'readDocument' | 'readImage'>;
}

export interface ReadImage {
  features: ImageFeatures;
  ocrText: string;
  /** The image's semantic context, the text that is enriched and embedded so a text query finds the image. */
  contextText: string;
  /** The resolved user context's time mentions, plus the EXIF capture time as an event time when there is one. */
  eventTimes: TimeMention[];
}

/**
 * Reads an image memory's bytes from the blob store and what can be known of them (in the file workers). Capture times are judged
 * against the acceptance time, not the clock, so a replay reads the same image the same way.
 */
export async function readImage(value: MemoryResolved, deps: ImageReadingDeps): Promise<ReadImage> {
  if (!value.blob) throw new MemoryServiceError('ENRICH.NO_BLOB', `image job ${value.jobId} carries no blob reference`);
  const bytes = await readAll(await deps.blobs.get(value.blob.key));
  const { features, ocrText } = await deps.files.readImage(bytes, { now: value.acceptedAt });
  const colours = features.dominantColours.map((colour) => colour.name);
  const contextText = [
    value.resolvedContent,
    ocrText ? `Text in the image: ${ocrText}` : null,
    colours.length ? `Colours: ${[...new Set(colours)].join(', ')}` : null,
  ]
    .filter((part): part is string => Boolean(part && part.trim()))
    .join('\n');
  const eventTimes = [...value.eventTimes];
  if (features.capturedAt !== null) {
    const iso = new Date(features.capturedAt).toISOString();
    eventTimes.push({ text: 'photo taken', index: -1, start: features.capturedAt, end: features.capturedAt, iso, relative: false });
  }
  return { features, ocrText, contextText: contextText || `An image, ${features.width}x${features.height}`, eventTimes };
}

async function readAll(stream: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}
