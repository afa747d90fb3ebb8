export * from './logger.js';
export * from './log-buffer.js';
export * from './terminal-sink.js';
