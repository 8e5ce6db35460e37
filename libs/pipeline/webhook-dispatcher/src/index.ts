export * from './dispatcher-stage.js';
export * from './deliverer.js';
export * from './events.js';
export * from './schedule.js';
export * from './signature.js';
export * from './target.js';
