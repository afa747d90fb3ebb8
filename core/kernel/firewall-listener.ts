import type { FirewallRule } from './firewall-rule.js';
import { HttpError } from '../errors.js';
import { decodeParameter } from '../routing/match-path.js';
import type { KernelEvent } from './kernel-event.js';
import { Phases } from './request-trace.js';

/**
 * Applies the first firewall rule whose pattern matches the path (kernel.request,
 * after the router). Patterns see the decoded path, as the router does, so
 * `/%61dmin` is `/admin` to both. The routes in `exempt` (the profiler's) are
 * outside every firewall, whatever path reached them. The decision goes to the
 * request's trace, for the security panel.
 */
export class FirewallListener {
  readonly #rules: { rule: FirewallRule; pattern: RegExp }[];

  constructor(
    rules: readonly FirewallRule[],
    private readonly exempt: ReadonlySet<string> = new Set(),
  ) {
    this.#rules = rules.map((rule) => ({
      rule,
      pattern: typeof rule.path === 'string' ? new RegExp(rule.path) : rule.path,
    }));
  }

  readonly onKernelRequest = (event: KernelEvent): void | Promise<void> => {
    const trace = event.trace;
    // The firewall's phase starts with this listener's call: the reading that began it.
    const start = trace.latest();
    const found = this.#find(event);
    if (!found) return trace.phase(Phases.firewall, start);
    return this.check(event, found.rule).finally(() => trace.phase(Phases.firewall, start));
  };

  /** The rule that applies, or null (the decision "none" is recorded). */
  #find(event: KernelEvent): { rule: FirewallRule } | null {
    const { request, trace } = event;
    const route = request.attributes.route;
    if (route !== null && this.exempt.has(route)) {
      trace.decided('none', null, 'The profiler is outside every firewall.');
      return null;
    }
    if (this.#rules.length === 0) {
      trace.decided('none', null, NO_RULE);
      return null;
    }
    const path = decodeParameter(request.path);
    const found = this.#rules.find(({ pattern }) => pattern.test(path));
    if (!found) trace.decided('none', null, NO_RULE);
    return found ?? null;
  }

  private async check(event: KernelEvent, rule: FirewallRule): Promise<void> {
    const { request, trace } = event;
    const log = request.logger.withChannel('security');
    log.debug('Checking firewall rule "{rule}" for "{path}".', { rule: rule.name, path: request.path });
    const verdict = await rule.check(request);
    if (verdict === true) {
      log.debug('Firewall rule "{rule}" granted access.', { rule: rule.name });
      trace.decided('allowed', rule.name, null);
      return;
    }
    log.info('Firewall rule "{rule}" denied access: {message}', {
      rule: rule.name,
      message: verdict.message,
      status: verdict.status,
    });
    trace.decided('denied', rule.name, verdict.message);
    throw new HttpError(
      verdict.status,
      verdict.message,
      verdict.status === 401 ? { 'WWW-Authenticate': 'Bearer' } : {},
    );
  }
}

const NO_RULE = 'No firewall rule matches this path.';
