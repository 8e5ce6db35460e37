import { findIdentifiers } from './identifiers.js';
import { lexicalTerms } from './terms.js';

/** The fields of a stored memory that lexical search reads (structurally a part of MemoryRecord). */
export interface LexicalSource {
  id: string;
  jobId: string;
  content: string;
  originalContent: string;
  userContext: string | null;
  document?: { fileName: string | null } | null;
}

/**
 * The version of what lexicalTerms, memoryTerms and memoryIdentifiers return. Stores that keep a memory's analysis
 * (the embedded vector store) analyse again the entries of another version, so bump it with any change to their
 * output; the fingerprint spec in lexical.spec.ts fails until you do.
 */
export const LEXICAL_ANALYSIS_VERSION = 1;

/** A memory's lexical analysis as a store keeps it. */
export interface LexicalAnalysis {
  version: number;
  terms: string[];
  identifiers: string[];
}

export function analyseMemory(memory: LexicalSource): LexicalAnalysis {
  return { version: LEXICAL_ANALYSIS_VERSION, terms: memoryTerms(memory), identifiers: memoryIdentifiers(memory) };
}

/**
 * What a memory is found by in lexical search: its resolved content (which carries OCR text and context for images),
 * the context the user gave when it is not already part of the content, and a document page's file name.
 */
export function memoryTerms(memory: LexicalSource): string[] {
  const parts = [memory.content];
  if (memory.userContext && !memory.content.includes(memory.userContext)) parts.push(memory.userContext);
  if (memory.document?.fileName) parts.push(memory.document.fileName.replace(/\.[a-z0-9]+$/i, ''));
  return lexicalTerms(parts.join('\n'));
}

/**
 * The exact identifiers a memory answers to in direct lookup: its own id, its job's id, and the codes, e-mails and
 * ids written in it (as sent and as resolved). Lower-cased like findIdentifiers' output.
 */
export function memoryIdentifiers(memory: LexicalSource): string[] {
  const found = new Set([memory.id.toLowerCase(), memory.jobId.toLowerCase()]);
  for (const text of [memory.originalContent, memory.content, memory.userContext ?? '']) for (const id of findIdentifiers(text)) found.add(id);
  return [...found];
}
