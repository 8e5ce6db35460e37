import type { StageSpec, Emit } from '@memory/pipeline-runtime';
import { progress } from '@memory/pipeline-runtime';
import { imageBlobKeys, memoryIdOf, type DocumentPart, type ImageFacts, type MemoryResolved, type TimeMention } from '@memory/contracts';
import type { Embedder } from '@memory/ports';
import { modelTag } from '@memory/ports';
import { MemoryServiceError } from '@memory/platform';
import type { Enricher } from '@memory/enrichment';
import { resolveTimeReferences } from '@memory/temporal';
import { readDocument } from './document-reading.js';
import { readImage, type ImageReadingDeps } from './image-reading.js';

export type { ImageReadingDeps } from './image-reading.js';

export interface EnricherStageDeps {
  enricher: Enricher;
  embedder: Embedder;
  /** For image and PDF memories; a text-only deployment may leave it out. */
  images?: ImageReadingDeps;
}

/** One memory to be: the text that is enriched and embedded, and what the source kind adds to it. */
interface Part {
  text: string;
  originalText: string;
  eventTimes: TimeMention[];
  memoryType: string | null;
  image: ImageFacts | null;
  document: Omit<DocumentPart, 'documentId' | 'fileName'> | null;
}

async function partsOf(value: MemoryResolved, deps: EnricherStageDeps): Promise<Part[]> {
  if (value.kind === 'text') {
    if (value.resolvedContent === null || value.originalContent === null) {
      throw new MemoryServiceError('ENRICH.NO_CONTENT', `job ${value.jobId} has no text to enrich`);
    }
    return [{ text: value.resolvedContent, originalText: value.originalContent, eventTimes: value.eventTimes, memoryType: null, image: null, document: null }];
  }
  if (!deps.images) throw new MemoryServiceError('ENRICH.MEDIA_UNAVAILABLE', 'this enricher was started without a blob store and file workers', { retriable: true });
  if (value.kind === 'image') {
    const image = await readImage(value, deps.images);
    const { features } = image;
    return [{
      text: image.contextText,
      originalText: value.originalContent ?? '',
      eventTimes: image.eventTimes,
      memoryType: 'image',
      image: {
        width: features.width,
        height: features.height,
        format: features.format,
        dominantColours: features.dominantColours.map(({ hex, share, name }) => ({ hex, share, name })),
        perceptualHash: features.perceptualHash,
        capturedAt: features.capturedAt,
        ocrText: image.ocrText,
        previewKey: imageBlobKeys(value.tenantId, value.endUserId, value.jobId).preview,
        descriptorVersion: features.descriptorVersion,
        visualVector: Array.from(features.visualDescriptor),
      },
      document: null,
    }];
  }
  // A document's pages mention times too; they resolve against the same reference time as any text.
  return (await readDocument(value, deps.images)).map((chunk) => {
    const resolved = resolveTimeReferences(chunk.text, { referenceTime: value.referenceTime, timeZone: value.timeZone });
    const { text: _text, ...document } = chunk;
    return { text: resolved.resolvedText, originalText: chunk.text, eventTimes: resolved.mentions, memoryType: 'document_page', image: null, document };
  });
}

/**
 * Adds implicit context (themes, synonyms, entities, sentiment, type, titles) and embeds the enriched text. An
 * image is first read (visual features, OCR) and its semantic context is what gets enriched; a PDF becomes one
 * memory per page or chunk of a long page. Every memory of a batch is embedded in one model call.
 */
export const enricherStage: StageSpec<'resolved', EnricherStageDeps> = {
  name: 'enricher',
  group: 'enricher',
  inputs: ['resolved'],
  outputs: ['enriched', 'jobStatus'],
  computesOnly: true,
  async process(batch, deps) {
    const partsPerInput: Part[][] = [];
    for (const { value } of batch) partsPerInput.push(await partsOf(value, deps));
    const flat = batch.flatMap(({ value }, i) => partsPerInput[i]!.map((part) => ({ value, part })));
    const enrichments = flat.map(({ value, part }) =>
      deps.enricher.enrich({ content: part.text, userContext: value.kind === 'text' ? value.userContext : null, time: { referenceTime: value.referenceTime, mentions: part.eventTimes } }),
    );
    const vectors = await deps.embedder.embed(enrichments.map((e) => e.enrichedText), 'passage');
    const model = modelTag(deps.embedder.model);

    let next = 0;
    return batch.map(({ value }, i): Emit[] => {
      const parts = partsPerInput[i]!;
      const emits: Emit[] = parts.map((part, partIndex) => {
        const at = next++;
        const enrichment = enrichments[at]!;
        return {
          event: 'enriched',
          value: {
            // An update rewrites the memory it names; a new memory's id is derived from its job and part.
            memoryId: value.memoryId ?? memoryIdOf(value.jobId, partIndex),
            jobId: value.jobId,
            tenantId: value.tenantId,
            endUserId: value.endUserId,
            kind: value.kind,
            partIndex,
            partCount: parts.length,
            acceptedAt: value.acceptedAt,
            createdAt: value.referenceTime,
            content: part.text,
            originalContent: part.originalText,
            userContext: value.userContext,
            eventTimes: part.eventTimes,
            memoryType: part.memoryType ?? enrichment.memoryType,
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
            image: part.image,
            document: part.document && { documentId: value.jobId, fileName: value.blob?.fileName ?? null, ...part.document },
            metadata: value.metadata,
            cause: value.cause,
            vector: Array.from(vectors[at]!),
          },
        };
      });
      emits.push(progress('enricher', value, { partCount: parts.length }));
      return emits;
    });
  },
};
