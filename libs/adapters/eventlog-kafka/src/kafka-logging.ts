import { logLevel, type LogEntry, type logCreator } from 'kafkajs';
import type { Logger } from '@memory/platform';

export type BridgedLevel = 'error' | 'warn' | 'debug';

/**
 * Where one kafkajs log line goes. kafkajs runs at WARN (its INFO chatter never reaches us), and two kinds of
 * its warnings and errors are demoted to debug because they say nothing the caller does not already hear:
 *  - every protocol error response is logged by kafkajs's Connection at ERROR before the same error is thrown to
 *    the operation that sent it (an existing topic on create, a record past the end on read), which the
 *    adapter then maps, retries or reports itself;
 *  - the idempotent producer warns that bounded retries "may invalidate EoS": we bound them on purpose, so an
 *    append fails (retriable) instead of hanging while the broker is away; delivery stays at-least-once;
 *  - a consumer's crash and restart: the adapter reports those itself, or fails consume() with them.
 */
export function bridgedLevel(level: logLevel, namespace: string, message: string): BridgedLevel {
  if (namespace === 'Connection' && message.startsWith('Response ')) return 'debug';
  if (message.startsWith('Limiting retries for the idempotent producer')) return 'debug';
  if (namespace === 'Consumer' && (message.startsWith('Crash: ') || message.startsWith('Restarting the consumer'))) return 'debug';
  if (level === logLevel.ERROR || level === logLevel.NOTHING) return 'error';
  if (level === logLevel.WARN) return 'warn';
  return 'debug';
}

/** A kafkajs logCreator that writes through our structured logger. */
export function kafkaLogCreator(logger: Logger): logCreator {
  return () => ({ namespace, level, log }: LogEntry) => {
    const { message, timestamp: _timestamp, logger: _source, ...fields } = log;
    const text = String(message);
    logger[bridgedLevel(level, namespace, text)](`kafkajs ${namespace ? `[${namespace}] ` : ''}${text}`, fields);
  };
}
