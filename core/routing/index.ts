export { compileMatcher } from './compiled-matcher.js';
export { explain } from './explain.js';
export { LinearMatcher } from './linear-matcher.js';
export type { Matcher, MatchFailure, MatchResult } from './matcher.js';
export { Route, type RouteDefinition } from './route.js';
export { RouteCollection } from './route-collection.js';
export { UrlGenerator, type GenerateOptions, type UrlParameters } from './url-generator.js';
