import { CATEGORY_KEYS, recallKey, type CategoryKey, type RecallFigures } from './aggregate.js';
import { CATEGORY_NAMES, type RetrievalCategory } from './questions.js';

export interface RecallTableInput {
  /** Rows, in order: e.g. system, bm25, dense. */
  systems: ReadonlyArray<{ name: string; figures: RecallFigures }>;
  counts: Record<CategoryKey, number>;
  ks: readonly number[];
}

const CELL = 6;
const GAP = '  ';

/**
 * A plain-text table: a block of rows per k, one row per system, and per category two columns, any@k (some
 * evidence turn found) and all@k (every evidence turn found). Fixed widths, so two runs can be diffed line by line.
 */
export function formatRecallTable(input: RecallTableInput): string {
  const labelWidth = Math.max(10, ...input.systems.map((s) => s.name.length + 6));
  const groupWidth = CELL * 2 + 1;
  const title = (key: CategoryKey) => (key === 'all' ? 'all' : `${key} ${CATEGORY_NAMES[Number(key) as RetrievalCategory]}`);
  const row = (label: string, cells: string[]) => (label.padEnd(labelWidth) + cells.join(GAP)).trimEnd();

  const lines = [
    row('recall', CATEGORY_KEYS.map((key) => title(key).padEnd(groupWidth))),
    row('questions', CATEGORY_KEYS.map((key) => `n=${input.counts[key]}`.padEnd(groupWidth))),
    row('', CATEGORY_KEYS.map(() => `${'any'.padStart(CELL)} ${'all'.padStart(CELL)}`)),
  ];
  for (const k of input.ks) {
    input.systems.forEach((system, i) => {
      const label = `${i === 0 ? `@${k}` : ''}`.padEnd(5) + system.name;
      lines.push(row(label, CATEGORY_KEYS.map((key) => `${cell(system.figures[key][recallKey('any', k)])} ${cell(system.figures[key][recallKey('all', k)])}`)));
    });
  }
  return lines.join('\n');
}

function cell(value: number | null | undefined): string {
  return (value === null || value === undefined ? '-' : value.toFixed(3)).padStart(CELL);
}
