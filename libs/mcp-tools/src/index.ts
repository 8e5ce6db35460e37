export * from './memory-api.js';
export * from './file-root.js';
export * from './tools.js';
export * from './stdio-config.js';
