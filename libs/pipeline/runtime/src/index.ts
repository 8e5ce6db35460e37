export * from './stage.js';
export * from './runner.js';
