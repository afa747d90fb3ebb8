import { LinearMatcher } from '../../../core/routing/linear-matcher.js';
import { runMatcherContract } from './matcher.contract.js';

runMatcherContract('LinearMatcher', (routes) => new LinearMatcher(routes));
