/**
 * WordNet's 45 lexicographer files (the lex_filenum field of a data line indexes this table, see lexnames(5WN)),
 * each with the theme label it contributes. `null` marks files too broad to say anything about a memory: every
 * sentence has quantities, times, states, acts, people and verbs of saying, thinking, going and meeting, so those
 * files would put "communication" or "activities" on most memories; a theme that fits every memory pulls all
 * vectors toward the same point and helps no search.
 */
export const LEXNAMES: readonly (readonly [lexname: string, theme: string | null])[] = [
  ['adj.all', null],
  ['adj.pert', null],
  ['adv.all', null],
  ['noun.Tops', null],
  ['noun.act', null],
  ['noun.animal', 'animals'],
  ['noun.artifact', null],
  ['noun.attribute', null],
  ['noun.body', 'body'],
  ['noun.cognition', null],
  ['noun.communication', 'communication'],
  ['noun.event', 'events'],
  ['noun.feeling', 'emotions'],
  ['noun.food', 'food'],
  ['noun.group', null],
  ['noun.location', 'places'],
  ['noun.motive', 'motivation'],
  ['noun.object', 'nature'],
  ['noun.person', null],
  ['noun.phenomenon', 'nature'],
  ['noun.plant', 'plants'],
  ['noun.possession', 'finance'],
  ['noun.process', null],
  ['noun.quantity', null],
  ['noun.relation', null],
  ['noun.shape', null],
  ['noun.state', null],
  ['noun.substance', null],
  ['noun.time', null],
  ['verb.body', 'body'],
  ['verb.change', null],
  ['verb.cognition', null],
  ['verb.communication', null],
  ['verb.competition', 'competition'],
  ['verb.consumption', 'food'],
  ['verb.contact', null],
  ['verb.creation', 'creativity'],
  ['verb.emotion', 'emotions'],
  ['verb.motion', null],
  ['verb.perception', null],
  ['verb.possession', 'possessions'],
  ['verb.social', null],
  ['verb.stative', null],
  ['verb.weather', 'weather'],
  ['adj.ppl', null],
];

export function lexnameTheme(lexFileNum: number): string | null {
  return LEXNAMES[lexFileNum]?.[1] ?? null;
}
