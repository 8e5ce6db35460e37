import { join } from 'node:path';
import { openEmbedder, readServiceConfig } from '@memory/composition';
import { bm25Rankings, cosineTopK, embedAll, type BenchmarkQuestion, type RankableTurn } from '@memory/evaluation';
import { createLogger } from '@memory/platform';
import { modelTag } from '@memory/ports';
import { progress, type Print } from './progress.js';
import { readCachedVectors, vectorCacheKey, writeCachedVectors } from './vector-cache.js';

export interface BaselineInput {
  turns: readonly RankableTurn[];
  questions: readonly BenchmarkQuestion[];
}

export interface BaselineRun {
  /** Per conversation, per question: turn ids, best first. */
  ranked: string[][][];
  notes: string[];
}

export function bm25Baseline(conversations: readonly BaselineInput[], k: number): BaselineRun {
  const started = performance.now();
  const ranked = conversations.map((c) =>
    bm25Rankings(
      c.turns,
      c.questions.map((q) => q.question),
      k,
    ),
  );
  return { ranked, notes: [`bm25: indexed and ranked in ${Math.round(performance.now() - started)} ms`] };
}

/**
 * Dense-only retrieval with the service's own embedder, opened the way the service opens it. `modelDataDir` is the
 * data folder whose recorded model to use (the service's, so both embed alike); a fresh folder gets the model
 * MEMORY_EMBEDDER picks. With a `cacheDir` (the --keep folder), vectors of the same texts and model are embedded once.
 */
export async function denseBaseline(
  conversations: readonly BaselineInput[],
  k: number,
  modelDataDir: string,
  cacheDir: string | null,
  print: Print,
): Promise<BaselineRun> {
  const config = readServiceConfig({ ...process.env, MEMORY_DATA_DIR: modelDataDir }, 'embedded');
  const embedder = await openEmbedder(config, createLogger({ component: 'bench' }, 'warn'));
  try {
    const turns = conversations.flatMap((c) => c.turns);
    const questions = conversations.flatMap((c) => c.questions.map((q) => q.question));
    const tag = modelTag(embedder.model);
    print(`dense: ${turns.length} turns and ${questions.length} questions with ${tag} ...`);
    const embedded = async (texts: string[], purpose: 'passage' | 'query', noun: string) => {
      const cacheFile = cacheDir ? join(cacheDir, `dense-${purpose}-vectors.json`) : null;
      const key = vectorCacheKey(tag, purpose, texts);
      const cached = cacheFile ? readCachedVectors(cacheFile, key) : null;
      if (cached) return { vectors: cached, line: `${texts.length} ${noun} from ${cacheFile}` };
      const shown = progress('embedded', texts.length, print, ` ${noun}`);
      const vectors = await embedAll(embedder, texts, purpose, { onProgress: (done) => shown.update(done) });
      const seconds = shown.finish(vectors.length);
      if (cacheFile) writeCachedVectors(cacheFile, key, vectors);
      return { vectors, line: `${texts.length} ${noun} in ${seconds.toFixed(1)} s (${(texts.length / seconds).toFixed(0)}/s)` };
    };
    const { vectors: turnVectors, line: turnLine } = await embedded(turns.map((t) => t.text), 'passage', 'turns');
    const { vectors: questionVectors, line: questionLine } = await embedded(questions, 'query', 'questions');

    let turnAt = 0;
    let questionAt = 0;
    const ranked = conversations.map((c) => {
      const vectors = turnVectors.slice(turnAt, (turnAt += c.turns.length));
      const ids = c.turns.map((t) => t.id);
      return c.questions.map(() => cosineTopK(questionVectors[questionAt++]!, vectors, ids, k));
    });
    return {
      ranked,
      notes: [`dense: ${tag}, ${turnLine}, ${questionLine}`],
    };
  } finally {
    await embedder.close();
  }
}
