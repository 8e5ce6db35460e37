import { currentRequestId } from './request-context.js';

/**
 * Structured JSON lines on stderr; the level comes from MEMORY_LOG_LEVEL (debug, info, warn, error, silent). A line
 * written while a request is served carries its requestId; a stage passes the id of the record it is about.
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
const order: Record<LogLevel | 'silent', number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  child(fields: Record<string, unknown>): Logger;
}

export function createLogger(base: Record<string, unknown> = {}, level = (process.env['MEMORY_LOG_LEVEL'] ?? 'info') as LogLevel | 'silent'): Logger {
  const threshold = order[level] ?? order.info;
  const emit = (lvl: LogLevel, msg: string, fields?: Record<string, unknown>) => {
    if (order[lvl] < threshold) return;
    const requestId = currentRequestId();
    process.stderr.write(JSON.stringify({ t: new Date().toISOString(), level: lvl, msg, ...(requestId ? { requestId } : {}), ...base, ...fields }) + '\n');
  };
  return {
    debug: (m, f) => emit('debug', m, f),
    info: (m, f) => emit('info', m, f),
    warn: (m, f) => emit('warn', m, f),
    error: (m, f) => emit('error', m, f),
    child: (fields) => createLogger({ ...base, ...fields }, level),
  };
}
