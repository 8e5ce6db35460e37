import type { LocomoTurn } from './locomo.js';

/**
 * What one turn becomes as a memory: who said it and what, and what the shared image showed (BLIP's caption),
 * since questions ask about pictures ("what did Melanie paint?") that the words alone do not describe.
 */
export function turnMemoryText(turn: Pick<LocomoTurn, 'speaker' | 'text' | 'caption'>): string {
  const said = turn.text.trim();
  const image = turn.caption ? `[shared image: ${turn.caption}]` : '';
  return `${turn.speaker}:${said ? ` ${said}` : ''}${image ? ` ${image}` : ''}`;
}
