/**
 * The closed list of memory categories, stored as `memory_type` in the payload and `memoryType` in
 * memory.enriched. Search filters on these values, so adding one is a schema-level change: append, never rename.
 *
 * | value          | meaning                                                        | example                                     |
 * |----------------|----------------------------------------------------------------|---------------------------------------------|
 * | fact           | a statement about the world or the user, no stronger signal     | "My apartment is on the third floor"        |
 * | preference     | a lasting like or dislike                                      | "I love hiking with my dog on weekends"     |
 * | event          | something that happened at a stated time                       | "We saw Dune at the IMAX last Friday"       |
 * | plan           | something intended or scheduled for the future                 | "I'm going to call the bank tomorrow"       |
 * | experience     | something the user lived through, no time given                | "I got lost in Venice once"                 |
 * | opinion        | a judgement the user holds                                     | "I think the sequel was overrated"          |
 * | relationship   | who is related to whom and how                                 | "My sister Melanie married Tom"             |
 * | goal           | an aspiration, not yet scheduled                               | "I want to run a marathon"                  |
 * | health         | the user's body, illness, treatment, care                      | "The doctor changed my medication"          |
 * | document_page  | one page (or chunk) of an uploaded PDF; set by the PDF path     |                                             |
 * | image          | an uploaded image; set by the image path                       |                                             |
 *
 * The text classifier picks among TEXT_MEMORY_TYPES only; the last two are assigned by the pipelines that
 * produce those memories.
 */
export const MEMORY_TYPES = [
  'fact',
  'preference',
  'event',
  'plan',
  'experience',
  'opinion',
  'relationship',
  'goal',
  'health',
  'document_page',
  'image',
] as const;

export type MemoryType = (typeof MEMORY_TYPES)[number];

export const TEXT_MEMORY_TYPES = [
  'fact',
  'preference',
  'event',
  'plan',
  'experience',
  'opinion',
  'relationship',
  'goal',
  'health',
] as const satisfies readonly MemoryType[];

export type TextMemoryType = (typeof TEXT_MEMORY_TYPES)[number];

const KNOWN = new Set<string>(MEMORY_TYPES);

export function isMemoryType(value: string): value is MemoryType {
  return KNOWN.has(value);
}
