export {
  checkSnapshots,
  responseOutline,
  snapshotFileName,
  type CheckedPath,
  type CheckSnapshotsOptions,
  type FetchedPage,
} from './check-paths.js';
export { diffLines, lineDiff, type DiffOp } from './line-diff.js';
export { foldVendorFrames } from './fold-vendor-frames.js';
export {
  findUnusedSnapshots,
  matchSnapshot,
  reportUnusedSnapshots,
  type MatchSnapshotOptions,
} from './match-snapshot.js';
export {
  applyNormalisers,
  defaultNormalisers,
  findTokens,
  knownTokens,
  normaliseClientIps,
  normaliseDurations,
  normaliseHosts,
  normalisePaths,
  normaliseSizes,
  normaliseTimes,
  normaliseTokens,
  normaliseVendorPositions,
  type DefaultNormaliserOptions,
  type Normaliser,
} from './normalise.js';
export { outline, type OutlineOptions } from './outline.js';
export { SnapshotMismatchError, SnapshotMissingError } from './snapshot-errors.js';
export type { SnapshotState } from './snapshot-file.js';
