import type { FirewallRule } from '../app/firewall-rule.js';
import { HttpError } from '../errors.js';
import type { SecurityData } from './trace-data.js';
import { decodeParameter } from '../routing/match-path.js';
import type { KernelEvent } from './kernel-event.js';

/**
 * Applies the first firewall rule whose pattern matches the path (kernel.request,
 * after the router). Patterns see the decoded path, as the router does, so
 * `/%61dmin` is `/admin` to both. The routes in `exempt` (the profiler's) are
 * outside every firewall, whatever path reached them. The decision is kept on
 * the request for the security panel.
 */
export class FirewallListener {
  readonly #rules: { rule: FirewallRule; pattern: RegExp }[];

  constructor(rules: readonly FirewallRule[], private readonly exempt: ReadonlySet<string> = new Set()) {
    this.#rules = rules.map((rule) => ({ rule, pattern: typeof rule.path === 'string' ? new RegExp(rule.path) : rule.path }));
  }

  readonly onKernelRequest = (event: KernelEvent): void | Promise<void> => {
    const request = event.request;
    if (!request.traced) {
      const found = this.#find(event);
      return found ? this.check(event, found.rule) : undefined;
    }
    const start = request.elapsed();
    const timed = () => void request.phases.push({ name: 'firewall', start, duration: request.since(start) });
    const found = this.#find(event);
    if (!found) return timed();
    return this.check(event, found.rule).finally(timed);
  };

  /** The rule that applies, or null (the decision "none" is recorded). */
  #find(event: KernelEvent): { rule: FirewallRule } | null {
    const request = event.request;
    const route = request.attributes.route;
    if (route !== null && this.exempt.has(route)) {
      request.extra.set('security', { decision: 'none', rule: null, message: 'The profiler is outside every firewall.' } satisfies SecurityData);
      return null;
    }
    if (this.#rules.length === 0) {
      request.extra.set('security', { decision: 'none', rule: null, message: 'No firewall rule matches this path.' } satisfies SecurityData);
      return null;
    }
    const path = decodeParameter(request.path);
    const found = this.#rules.find(({ pattern }) => pattern.test(path));
    if (!found) request.extra.set('security', { decision: 'none', rule: null, message: 'No firewall rule matches this path.' } satisfies SecurityData);
    return found ?? null;
  }

  private async check(event: KernelEvent, rule: FirewallRule): Promise<void> {
    const request = event.request;
    const log = request.logger.withChannel('security');
    const decide = (data: SecurityData) => request.extra.set('security', data);
    log.debug('Checking firewall rule "{rule}" for "{path}".', { rule: rule.name, path: request.path });
    const verdict = await rule.check(request);
    if (verdict === true) {
      log.debug('Firewall rule "{rule}" granted access.', { rule: rule.name });
      decide({ decision: 'allowed', rule: rule.name, message: null });
      return;
    }
    log.info('Firewall rule "{rule}" denied access: {message}', { rule: rule.name, message: verdict.message, status: verdict.status });
    decide({ decision: 'denied', rule: rule.name, message: verdict.message });
    throw new HttpError(verdict.status, verdict.message, verdict.status === 401 ? { 'WWW-Authenticate': 'Bearer' } : {});
  }
}
