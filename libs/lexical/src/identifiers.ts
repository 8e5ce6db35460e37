/**
 * Exact identifiers in a text, for direct lookup: e-mail addresses, memory and job ids, and codes that mix letters
 * and digits or group digits with separators (ORD-2024-1187, INC0012345, #4512, A1B2C3). Returned lower-cased,
 * once each, in order of appearance. Plain numbers, years, clock times, dates and measures ("10am", "5km", "3rd")
 * are not identifiers: they are everywhere in ordinary text.
 */
export function findIdentifiers(text: string): string[] {
  const found = new Set<string>();
  for (const raw of text.split(/[\s,;()[\]{}<>"'`]+/)) {
    const token = raw.replace(/^[#:.!?*]+|[.:!?*]+$/g, '').toLowerCase();
    if (token && isIdentifier(token, raw.startsWith('#'))) found.add(token);
  }
  return [...found];
}

const EMAIL = /^[a-z0-9._%+-]+@[a-z0-9-]+(\.[a-z0-9-]+)+$/;
const NOT_CODES = [
  /^\d{1,2}(st|nd|rd|th)$/, // ordinals
  /^\d+(\.\d+)?(am|pm|s|k|m|h|km|kg|g|mb|gb|tb|ms|mph|kph|cm|mm|ml|l|lb|lbs|min|mins|hrs|yo|x)$/, // times, decades, measures
  /^\d{1,4}([-/.]\d{1,4}){1,2}$/, // dates: 2023-05-08, 8/5/2023, 1.5
  /^\d+([.,]\d+)*%?$/, // plain and decimal numbers
  /^\d{1,2}:\d{2}(:\d{2})?$/, // clock times
];

function isIdentifier(token: string, hashed: boolean): boolean {
  if (token.length < 3 || token.length > 120) return false;
  if (EMAIL.test(token)) return true;
  if (!/\d/.test(token)) return false;
  // "#4512" names a ticket or an order even though it is only digits.
  if (hashed && /^\d{2,}$/.test(token)) return true;
  if (NOT_CODES.some((pattern) => pattern.test(token))) return false;
  return /[a-z]/.test(token) || /^\d+([-_/]\d+)+$/.test(token) || /^\d{6,}$/.test(token);
}
