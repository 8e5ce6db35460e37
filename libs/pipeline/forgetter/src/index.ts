export * from './remove-memories.js';
export * from './forget.js';
export * from './forgetter-stage.js';
export * from './webhook-records.js';
