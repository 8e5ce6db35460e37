import { CATEGORY_KEYS, recallKey, sessionRecallKey, type CategoryKey, type RecallFigures } from './aggregate.js';
import type { HeadlineFigures } from './headline.js';
import { HEADLINE_MEASURES } from './headline.js';
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
  return categoryTable(
    'recall',
    input.counts,
    ['any', 'all'],
    input.ks.flatMap((k) =>
      input.systems.map((system, i) => ({
        label: `${i === 0 ? `@${k}` : ''}`.padEnd(5) + system.name,
        cells: (key: CategoryKey) => [system.figures[key][recallKey('any', k)], system.figures[key][recallKey('all', k)]],
      })),
    ),
  );
}

/** Session-level recall: one row per system, and per category a column per k (R@5, R@10). */
export function formatSessionRecallTable(input: RecallTableInput): string {
  return categoryTable(
    'session',
    input.counts,
    input.ks.map(sessionRecallKey),
    input.systems.map((system) => ({ label: system.name, cells: (key: CategoryKey) => input.ks.map((k) => system.figures[key][sessionRecallKey(k)]) })),
  );
}

interface CategoryRow {
  label: string;
  cells(key: CategoryKey): ReadonlyArray<number | null | undefined>;
}

/** Columns grouped by category (1-4, then all), a title row, a row of question counts and a row of column names. */
function categoryTable(title: string, counts: Record<CategoryKey, number>, columns: readonly string[], rows: readonly CategoryRow[]): string {
  const labelWidth = Math.max(10, ...rows.map((r) => r.label.length + 1));
  const groupWidth = Math.max(13, columns.length * (CELL + 1) - 1);
  const heading = (key: CategoryKey) => (key === 'all' ? 'all' : `${key} ${CATEGORY_NAMES[Number(key) as RetrievalCategory]}`);
  const row = (label: string, cells: string[]) => (label.padEnd(labelWidth) + cells.join(GAP)).trimEnd();
  const group = (values: string[]) => values.join(' ').padStart(groupWidth);
  return [
    row(title, CATEGORY_KEYS.map((key) => heading(key).padEnd(groupWidth))),
    row('questions', CATEGORY_KEYS.map((key) => `n=${counts[key]}`.padEnd(groupWidth))),
    row('', CATEGORY_KEYS.map(() => group(columns.map((c) => c.padStart(CELL))))),
    ...rows.map((r) => row(r.label, CATEGORY_KEYS.map((key) => group(r.cells(key).map(cell))))),
  ].join('\n');
}

function cell(value: number | null | undefined): string {
  return (value === null || value === undefined ? '-' : value.toFixed(3)).padStart(CELL);
}

export interface ConversationTableInput {
  /** Column headings, one per conversation, with their question counts (all, and temporal). */
  conversations: ReadonlyArray<{ name: string; questions: number; temporal: number }>;
  /** Rows, in order; `perConversation` as the conversations are listed, `all` over every question. */
  systems: ReadonlyArray<{ name: string; perConversation: readonly HeadlineFigures[]; all: HeadlineFigures }>;
}

/** The headline figures per conversation, then pooled ("all"): a block of rows per measure, one row per system. */
export function formatConversationTable(input: ConversationTableInput): string {
  const measureWidth = Math.max(...HEADLINE_MEASURES.map((m) => m.length), 'conversation'.length) + 2;
  const labelWidth = measureWidth + Math.max(...input.systems.map((s) => s.name.length)) + 1;
  const width = Math.max(CELL, ...input.conversations.map((c) => c.name.length), `n=${input.conversations.reduce((n, c) => n + c.questions, 0)}`.length);
  const total = (count: 'questions' | 'temporal') => `n=${input.conversations.reduce((n, c) => n + c[count], 0)}`;
  const row = (label: string, cells: string[]) => (label.padEnd(labelWidth) + cells.map((c) => c.padStart(width)).join(GAP)).trimEnd();
  const lines = [
    row('conversation', [...input.conversations.map((c) => c.name), 'all']),
    row('questions', [...input.conversations.map((c) => `n=${c.questions}`), total('questions')]),
    row('temporal', [...input.conversations.map((c) => `n=${c.temporal}`), total('temporal')]),
  ];
  for (const measure of HEADLINE_MEASURES) {
    input.systems.forEach((system, i) => {
      const label = (i === 0 ? measure : '').padEnd(measureWidth) + system.name;
      lines.push(row(label, [...system.perConversation.map((figures) => cell(figures[measure])), cell(system.all[measure])]));
    });
  }
  return lines.join('\n');
}
