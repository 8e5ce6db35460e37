import type { StageSpec, Emit } from '@memory/pipeline-runtime';
import { progress } from '@memory/pipeline-runtime';
import { imageBlobKeys, memoryIdOf, type MemoryResolved, type TimeMention } from '@memory/contracts';
import type { Embedder } from '@memory/ports';
import { modelTag } from '@memory/ports';
import { MemoryServiceError } from '@memory/platform';
import type { Enricher } from '@memory/enrichment';
import { readImage, type ImageReadingDeps, type ReadImage } from './image-reading.js';

export type { ImageReadingDeps } from './image-reading.js';

export interface EnricherStageDeps {
  enricher: Enricher;
  embedder: Embedder;
  /** For image memories; a text-only deployment may leave it out. */
  images?: ImageReadingDeps;
}

interface Prepared {
  text: string;
  originalText: string;
  eventTimes: TimeMention[];
  image: ReadImage | null;
}

async function prepare(value: MemoryResolved, deps: EnricherStageDeps): Promise<Prepared> {
  if (value.kind === 'image') {
    if (!deps.images) throw new MemoryServiceError('ENRICH.IMAGES_UNAVAILABLE', 'this enricher was started without a blob store and OCR', { retriable: true });
    const image = await readImage(value, deps.images);
    return { text: image.contextText, originalText: value.originalContent ?? '', eventTimes: image.eventTimes, image };
  }
  if (value.resolvedContent === null || value.originalContent === null) {
    throw new MemoryServiceError('ENRICH.NO_CONTENT', `job ${value.jobId} has no text to enrich`);
  }
  return { text: value.resolvedContent, originalText: value.originalContent, eventTimes: value.eventTimes, image: null };
}

/**
 * Adds implicit context (themes, synonyms, entities, sentiment, type, titles) and embeds the enriched text. An
 * image is first read (visual features, OCR), and its semantic context is what gets enriched and embedded; its
 * visual descriptor travels along for search by image.
 */
export const enricherStage: StageSpec<'resolved', EnricherStageDeps> = {
  name: 'enricher',
  group: 'enricher',
  inputs: ['resolved'],
  outputs: ['enriched', 'jobStatus'],
  async process(batch, deps) {
    const prepared: Prepared[] = [];
    for (const { value } of batch) prepared.push(await prepare(value, deps));
    const enrichments = batch.map(({ value }, i) =>
      deps.enricher.enrich({ content: prepared[i]!.text, userContext: value.kind === 'image' ? null : value.userContext, time: { referenceTime: value.referenceTime, mentions: prepared[i]!.eventTimes } }),
    );
    const vectors = await deps.embedder.embed(enrichments.map((e) => e.enrichedText), 'passage');
    const model = modelTag(deps.embedder.model);
    return batch.map(({ value }, i): Emit[] => {
      const enrichment = enrichments[i]!;
      const { image } = prepared[i]!;
      return [
        {
          event: 'enriched',
          value: {
            memoryId: memoryIdOf(value.jobId, 0),
            jobId: value.jobId,
            tenantId: value.tenantId,
            endUserId: value.endUserId,
            kind: value.kind,
            partIndex: 0,
            partCount: 1,
            acceptedAt: value.acceptedAt,
            createdAt: value.referenceTime,
            content: prepared[i]!.text,
            originalContent: prepared[i]!.originalText,
            userContext: value.userContext,
            eventTimes: prepared[i]!.eventTimes,
            memoryType: image ? 'image' : enrichment.memoryType,
            themes: enrichment.themes,
            synonyms: enrichment.synonyms,
            keywords: enrichment.keywords,
            entities: enrichment.entities,
            sentiment: enrichment.sentiment,
            sentimentScore: enrichment.sentimentScore,
            movieGenre: enrichment.movieGenre,
            mentionedTitles: enrichment.mentionedTitles,
            embeddingModel: model,
            blob: value.blob,
            image: image && {
              width: image.features.width,
              height: image.features.height,
              format: image.features.format,
              dominantColours: image.features.dominantColours.map(({ hex, share, name }) => ({ hex, share, name })),
              perceptualHash: image.features.perceptualHash,
              capturedAt: image.features.capturedAt,
              ocrText: image.ocrText,
              previewKey: imageBlobKeys(value.tenantId, value.endUserId, value.jobId).preview,
              descriptorVersion: image.features.descriptorVersion,
              visualVector: Array.from(image.features.visualDescriptor),
            },
            document: null,
            vector: Array.from(vectors[i]!),
          },
        },
        progress('enricher', value),
      ];
    });
  },
};
