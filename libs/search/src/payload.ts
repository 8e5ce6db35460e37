import type { StoredMemory } from '@memory/ports';

/**
 * The payload of a search result. The interface names memory_type, content, movie_genre (for movie-related
 * memories), sentiment, mentioned_titles, user_id and created_at (ms epoch); the rest is ours, in the same case.
 * The one builder of a memory's payload: search results and the read routes (GET /v1/memories...) both use it.
 */
export function toPayload(m: StoredMemory): Record<string, unknown> {
  return {
    memory_type: m.memoryType,
    content: m.content,
    ...(m.movieGenre ? { movie_genre: m.movieGenre } : {}),
    sentiment: m.sentiment,
    mentioned_titles: m.mentionedTitles,
    user_id: m.endUserId,
    created_at: m.createdAt,
    original_content: m.originalContent,
    themes: m.themes,
    entities: m.entities.map((e) => ({ name: e.name, type: e.type })),
    event_times: m.eventTimes.map((t) => ({ text: t.text, iso: t.iso, start: t.start, end: t.end })),
    source_type: m.kind,
    job_id: m.jobId,
    version: m.version ?? 1,
    embedding_model: m.embeddingModel,
    // {} when the memory has none, so a client reads payload.metadata.<key> without a null check.
    metadata: m.metadata ?? {},
    ...(m.image
      ? {
          image: {
            width: m.image.width,
            height: m.image.height,
            format: m.image.format,
            dominant_colours: m.image.dominantColours,
            perceptual_hash: m.image.perceptualHash,
            captured_at: m.image.capturedAt,
            ocr_text: m.image.ocrText,
          },
        }
      : {}),
    ...(m.document
      ? { document: { document_id: m.document.documentId, file_name: m.document.fileName, page_number: m.document.pageNumber, page_count: m.document.pageCount, text_source: m.document.textSource } }
      : {}),
  };
}
