import type { AdapterFactory } from './adapter.js';
import { appkernelLookup } from './appkernel-adapter.js';
import { findMyWayFind } from './find-my-way-adapter.js';

export const APPKERNEL = 'appkernel lookup()';
export const BASELINE = 'find-my-way find()';

/** appkernel's routing decision against what find-my-way's users get. */
export const CONTENDERS: Record<string, AdapterFactory> = {
  [APPKERNEL]: appkernelLookup,
  [BASELINE]: findMyWayFind,
};
