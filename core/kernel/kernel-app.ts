import type { RouteCollection } from '../routing/route-collection.js';
import type { Controller } from './controller.js';
import type { FirewallRule } from './firewall-rule.js';

/** The app as the kernel runs it (core/app's App is one): its route table, each route's controller, its firewall and request timeout. */
export interface KernelApp {
  readonly routes: RouteCollection;
  readonly controllers: ReadonlyMap<string, Controller>;
  readonly firewall: readonly FirewallRule[];
  readonly options: { readonly requestTimeoutMs?: number };
}
