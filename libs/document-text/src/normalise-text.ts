const LINE_END_HYPHEN = /\p{L}[-\u2010]$/u;
const LINE_END_SOFT_HYPHEN = /\p{L}\u00AD$/u;
const STARTS_LOWERCASE = /^\p{Ll}/u;
const STARTS_LETTER = /^\p{L}/u;
const INVISIBLE = /[\u00AD\u200B\u2060\uFEFF]/g;

/**
 * Cleans the text of one page: every kind of space becomes one plain space, lines are trimmed, words hyphenated at
 * a line end are joined again, and blank lines collapse to a single paragraph break.
 */
export function normaliseText(raw: string): string {
  const lines = raw
    .replace(/\r\n?/g, '\n')
    .replace(/[^\S\n]+/g, ' ')
    .replace(/\p{Cc}/gu, (c) => (c === '\n' ? c : ''))
    .split('\n')
    .map((line) => line.trim());
  dehyphenate(lines);
  return collapseBlankLines(lines.map((line) => line.replace(INVISIBLE, '').trim())).join('\n');
}

/**
 * Joins `hyphen-` / `ation` across a line break by moving the continuation up, so the line structure survives.
 * A plain hyphen is taken as a line-end break only when the next line starts in lower case (a capital suggests a
 * name or a dash); compounds broken at their own hyphen ("self-" / "aware") lose it, the usual price of this rule.
 * A soft hyphen (U+00AD) exists only to mark such a break, so it always joins.
 */
function dehyphenate(lines: string[]): void {
  for (let i = 0; i < lines.length - 1; i++) {
    for (;;) {
      const line = lines[i] ?? '';
      const next = lines[i + 1] ?? '';
      const soft = LINE_END_SOFT_HYPHEN.test(line) && STARTS_LETTER.test(next);
      if (!soft && !(LINE_END_HYPHEN.test(line) && STARTS_LOWERCASE.test(next))) break;
      const space = next.indexOf(' ');
      const word = space === -1 ? next : next.slice(0, space);
      const rest = space === -1 ? '' : next.slice(space + 1);
      lines[i] = line.slice(0, -1) + word;
      if (rest) {
        lines[i + 1] = rest;
        break;
      }
      // The continuation was the whole line: drop it rather than leave a blank line that reads as a paragraph.
      lines.splice(i + 1, 1);
      if (i + 1 >= lines.length) break;
    }
  }
}

function collapseBlankLines(lines: string[]): string[] {
  const out: string[] = [];
  for (const line of lines) {
    if (line === '' && (out.length === 0 || out[out.length - 1] === '')) continue;
    out.push(line);
  }
  while (out.length > 0 && out[out.length - 1] === '') out.pop();
  return out;
}
