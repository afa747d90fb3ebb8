import type { Request } from '../http/request.js';

export type FirewallDecision = true | { status: 401 | 403; message: string };

/** A rule guards the paths its pattern matches; the first rule whose pattern matches decides. */
export interface FirewallRule {
  name: string;
  /** a RegExp, or a string compiled as one (e.g. '^/admin') */
  path: string | RegExp;
  check(request: Request): FirewallDecision | Promise<FirewallDecision>;
}
