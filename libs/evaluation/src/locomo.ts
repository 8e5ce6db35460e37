import { MemoryServiceError } from '@memory/platform';
import { sessionTimestamp } from './session-date.js';

/** 1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop, 5 adversarial (the answer is not in the conversation). */
export type QuestionCategory = 1 | 2 | 3 | 4 | 5;

export interface LocomoTurn {
  /** "D<session>:<turn>", what evidence refers to. */
  diaId: string;
  speaker: string;
  text: string;
  /** BLIP's caption of the image the speaker shared, when there was one. */
  caption: string | null;
}

export interface LocomoSession {
  number: number;
  /** As written in the file, e.g. "1:56 pm on 8 May, 2023". */
  dateTime: string;
  /** The same instant as ISO 8601 UTC. */
  timestamp: string;
  turns: LocomoTurn[];
}

export interface LocomoQuestion {
  question: string;
  category: QuestionCategory;
  /** dia_ids as written in the file, unchecked: see benchmarkQuestions. */
  evidence: string[];
}

export interface LocomoConversation {
  /** Where it came from (a file name), for messages. */
  name: string;
  speakerA: string;
  speakerB: string;
  /** In session order. */
  sessions: LocomoSession[];
  questions: LocomoQuestion[];
}

const SESSION_KEY = /^session_(\d+)$/;

/**
 * Checks one LoCoMo conversation (the JSON of one file) and returns it typed. Every problem names the file and the
 * place in it, so a broken file can be fixed without reading this code. Fields the benchmark does not use
 * (summaries, observations, events, answers) are not checked.
 */
export function parseLocomoConversation(raw: unknown, name: string): LocomoConversation {
  const fail = (where: string, what: string) => new MemoryServiceError('LOCOMO.INVALID_FILE', `${name}: ${where} ${what}`);
  // The release nests the conversation under "conversation" next to "qa"; the split files have it flat.
  const root = objectAt(raw, name, 'the file');
  const body = root['conversation'] !== undefined ? objectAt(root['conversation'], name, 'conversation') : root;
  const speakerA = stringAt(body, 'speaker_a', fail);
  const speakerB = stringAt(body, 'speaker_b', fail);

  const sessions: LocomoSession[] = [];
  for (const [key, value] of Object.entries(body)) {
    const m = SESSION_KEY.exec(key);
    if (!m) continue;
    if (!Array.isArray(value)) throw fail(key, 'must be a list of turns');
    const dateTime = stringAt(body, `${key}_date_time`, fail);
    let timestamp: string;
    try {
      timestamp = sessionTimestamp(dateTime);
    } catch (error) {
      throw fail(`${key}_date_time`, error instanceof Error ? error.message : String(error));
    }
    const turns = value.map((turn, i) => parseTurn(turn, `${key}[${i}]`, fail));
    sessions.push({ number: Number(m[1]), dateTime, timestamp, turns });
  }
  if (sessions.length === 0) throw fail('the file', 'has no session_N lists of turns');
  sessions.sort((a, b) => a.number - b.number);

  const seen = new Set<string>();
  for (const turn of sessions.flatMap((s) => s.turns)) {
    if (seen.has(turn.diaId)) throw fail(`dia_id ${turn.diaId}`, 'appears twice');
    seen.add(turn.diaId);
  }

  const qa = root['qa'] ?? body['qa'];
  if (!Array.isArray(qa)) throw fail('qa', 'must be a list of questions');
  const questions = qa.map((q, i) => parseQuestion(q, `qa[${i}]`, fail));
  return { name, speakerA, speakerB, sessions, questions };
}

type Fail = (where: string, what: string) => Error;

function parseTurn(raw: unknown, where: string, fail: Fail): LocomoTurn {
  if (!isObject(raw)) throw fail(where, 'must be an object');
  const caption = raw['blip_caption'];
  if (caption !== undefined && caption !== null && typeof caption !== 'string') throw fail(`${where}.blip_caption`, 'must be a string');
  // A turn may be an image with no words: its text can be empty, but must be there.
  const text = raw['text'];
  if (typeof text !== 'string') throw fail(`${where}.text`, 'must be a string');
  return {
    diaId: stringAt(raw, 'dia_id', fail, where),
    speaker: stringAt(raw, 'speaker', fail, where),
    text,
    caption: typeof caption === 'string' && caption.trim() !== '' ? caption.trim() : null,
  };
}

function parseQuestion(raw: unknown, where: string, fail: Fail): LocomoQuestion {
  if (!isObject(raw)) throw fail(where, 'must be an object');
  const category = raw['category'];
  if (category !== 1 && category !== 2 && category !== 3 && category !== 4 && category !== 5) throw fail(`${where}.category`, 'must be 1, 2, 3, 4 or 5');
  const evidence = raw['evidence'] ?? [];
  if (!Array.isArray(evidence) || !evidence.every((e) => typeof e === 'string')) throw fail(`${where}.evidence`, 'must be a list of dia_id strings');
  return { question: stringAt(raw, 'question', fail, where), category, evidence };
}

function stringAt(o: Record<string, unknown>, key: string, fail: Fail, where?: string): string {
  const value = o[key];
  if (typeof value !== 'string' || value.trim() === '') throw fail(where ? `${where}.${key}` : key, 'must be a non-empty string');
  return value;
}

function objectAt(value: unknown, name: string, where: string): Record<string, unknown> {
  if (!isObject(value)) throw new MemoryServiceError('LOCOMO.INVALID_FILE', `${name}: ${where} must be a JSON object`);
  return value;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** All turns in conversation order. */
export function conversationTurns(conversation: LocomoConversation): Array<LocomoTurn & { session: LocomoSession; timestamp: string }> {
  return conversation.sessions.flatMap((session) => session.turns.map((turn, index) => ({ ...turn, session, timestamp: turnTimestamp(session.timestamp, index) })));
}

/** Seconds between two turns of a session: the file dates sessions only, and a chat's turns follow each other. */
export const TURN_SPACING_SECONDS = 60;

/** When a turn was said: its session's start plus TURN_SPACING_SECONDS per turn before it. */
export function turnTimestamp(sessionTimestamp: string, index: number): string {
  return new Date(Date.parse(sessionTimestamp) + index * TURN_SPACING_SECONDS * 1000).toISOString();
}
