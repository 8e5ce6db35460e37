import type { StageSpec, Emit } from '@memory/pipeline-runtime';
import { progress } from '@memory/pipeline-runtime';
import { memoryIdOf } from '@memory/contracts';
import type { Embedder } from '@memory/ports';
import { modelTag } from '@memory/ports';
import { MemoryServiceError } from '@memory/platform';
import type { Enricher } from '@memory/enrichment';

export interface EnricherStageDeps {
  enricher: Enricher;
  embedder: Embedder;
}

/**
 * Adds implicit context (themes, synonyms, entities, sentiment, type, titles) and embeds the enriched text. The
 * whole batch is embedded in one model call: batching is where the model's throughput comes from.
 */
export const enricherStage: StageSpec<'resolved', EnricherStageDeps> = {
  name: 'enricher',
  group: 'enricher',
  inputs: ['resolved'],
  outputs: ['enriched', 'jobStatus'],
  async process(batch, { enricher, embedder }) {
    const enrichments = batch.map(({ value }) => {
      if (value.resolvedContent === null || value.originalContent === null) {
        throw new MemoryServiceError('ENRICH.NO_CONTENT', `job ${value.jobId} has no text to enrich`);
      }
      return enricher.enrich({ content: value.resolvedContent, userContext: value.userContext, time: { referenceTime: value.referenceTime, mentions: value.eventTimes } });
    });
    const vectors = await embedder.embed(enrichments.map((e) => e.enrichedText), 'passage');
    const model = modelTag(embedder.model);
    return batch.map(({ value }, i): Emit[] => {
      const enrichment = enrichments[i]!;
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
            content: value.resolvedContent!,
            originalContent: value.originalContent!,
            userContext: value.userContext,
            eventTimes: value.eventTimes,
            memoryType: enrichment.memoryType,
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
            image: null,
            document: null,
            vector: Array.from(vectors[i]!),
          },
        },
        progress('enricher', value),
      ];
    });
  },
};
