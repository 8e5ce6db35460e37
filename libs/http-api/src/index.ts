export * from './app.js';
export * from './auth.js';
export * from './idempotency.js';
export * from './ingestion.js';
export * from './forgetting.js';
export * from './updating.js';
export * from './limits.js';
export * from './validation.js';
export type { Readiness } from './routes/health.js';
