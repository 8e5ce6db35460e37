/** The graph keeps the first 128 tokens of a text and drops the rest (its ClipToMaxLength step). */
export const MODEL_MAX_TOKENS = 128;
/** The longest piece in the model's vocabulary, in characters. */
const LONGEST_PIECE = 16;
/** Texts longer than this are cut before tokenizing; see modelInput. */
export const MAX_INPUT_CHARS = 2 * MODEL_MAX_TOKENS * LONGEST_PIECE;

/**
 * The part of a text the model can see. The library's tokenizer takes time quadratic in the text's length, and
 * the model ignores everything past its first 128 tokens anyway, so long texts are cut first. The first 128
 * tokens cover at most 128 x 16 characters, and no vocabulary piece spans a space (words are tokenized
 * independently), so a cut at a space past that point leaves those tokens, and the vector, unchanged. A text with
 * no space in range (or runs of unknown characters, which merge into one token) is cut at MAX_INPUT_CHARS.
 */
export function modelInput(text: string): string {
  if (text.length <= MAX_INPUT_CHARS) return text;
  const space = text.lastIndexOf(' ', MAX_INPUT_CHARS);
  let cut = space >= MODEL_MAX_TOKENS * LONGEST_PIECE ? space : MAX_INPUT_CHARS;
  // Never split a surrogate pair: half a character would tokenize as an unknown symbol.
  const before = text.charCodeAt(cut - 1);
  if (before >= 0xd800 && before <= 0xdbff) cut -= 1;
  return text.slice(0, cut);
}
