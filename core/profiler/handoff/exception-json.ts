import type { ExceptionData, ExceptionRecord, Frame } from '../../kernel/exception-data.js';

/** The JSON of frozen frame lists: a stack met again hands out the same frozen frames (stack-frames.ts). */
const framesJson = new WeakMap<readonly Frame[], string>();

/**
 * `JSON.stringify(exception)`, the same text, with the JSON of frozen frames made once: a 404
 * thrown again and again carries the same frames every time.
 */
export function exceptionJson(exception: ExceptionData): string {
  let json = '{"chain":[';
  for (let i = 0; i < exception.chain.length; i++) json += (i > 0 ? ',' : '') + recordJson(exception.chain[i]);
  return `${json}]}`;
}

function recordJson(record: ExceptionRecord): string {
  const { frames, ...rest } = record;
  const keys = Object.keys(record);
  if (!Object.isFrozen(frames) || keys[keys.length - 1] !== 'frames') return JSON.stringify(record);
  let text = framesJson.get(frames);
  if (text === undefined) framesJson.set(frames, (text = JSON.stringify(frames)));
  const head = JSON.stringify(rest);
  return `${head.slice(0, -1)}${head.length > 2 ? ',' : ''}"frames":${text}}`;
}
