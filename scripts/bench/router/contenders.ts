import type { AdapterFactory } from './adapter.js';
import { appkernelLookup, appkernelMatch } from './appkernel-adapter.js';
import { findMyWay, findMyWayFindOnly } from './find-my-way-adapter.js';

/** Every contender of the router benchmark; find-my-way (with its 405 probe) is the baseline. */
export const CONTENDERS: Record<string, AdapterFactory> = {
  'appkernel lookup()': appkernelLookup,
  'appkernel match()': appkernelMatch,
  'find-my-way': findMyWay,
  'find-my-way find()': findMyWayFindOnly,
};

export const BASELINE = 'find-my-way';
