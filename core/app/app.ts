import { RouteCollection } from '../routing/route-collection.js';
import type { RouteDefinition } from '../routing/route.js';
import type { Controller } from '../kernel/controller.js';
import type { FirewallRule } from '../kernel/firewall-rule.js';
import type { KernelApp } from '../kernel/kernel-app.js';
import { checkPanel, type AppPanel } from './app-panel.js';

export interface AppOptions {
  /** shown in `app serve` output and the profiler */
  name?: string;
  /** request bodies above this many bytes are answered 413; default 1 MiB */
  bodyLimit?: number;
  /** a controller still pending after this many ms is answered 504; default 30 s */
  requestTimeoutMs?: number;
  /** peers whose X-Forwarded-For is believed */
  trustedProxies?: string[];
}

export interface RouteOptions extends Omit<RouteDefinition, 'path' | 'controller'> {
  /** a label for the profiler and `app routes`; default: the function's name, else the route name */
  controller?: string;
}

/** A user's application: routes in definition order, their controllers, firewall rules, options. */
export class App implements KernelApp {
  readonly routes = new RouteCollection();
  readonly controllers = new Map<string, Controller>();
  readonly firewall: FirewallRule[] = [];
  /** the app's own profiler panels (app.panel), in definition order */
  readonly panels = new Map<string, AppPanel>();

  constructor(readonly options: AppOptions = {}) {}

  route(name: string, path: string, controller: Controller, options: RouteOptions = {}): this {
    if (typeof controller !== 'function') {
      throw new TypeError(`Route "${name}": the controller must be a function, ${typeof controller} given.`);
    }
    this.routes.add(name, { ...options, path, controller: options.controller ?? (controller.name || name) });
    this.controllers.set(name, nameAnonymous(controller, name));
    return this;
  }

  get(name: string, path: string, controller: Controller, options: RouteOptions = {}): this {
    return this.route(name, path, controller, { ...options, methods: ['GET'] });
  }

  post(name: string, path: string, controller: Controller, options: RouteOptions = {}): this {
    return this.route(name, path, controller, { ...options, methods: ['POST'] });
  }

  put(name: string, path: string, controller: Controller, options: RouteOptions = {}): this {
    return this.route(name, path, controller, { ...options, methods: ['PUT'] });
  }

  patch(name: string, path: string, controller: Controller, options: RouteOptions = {}): this {
    return this.route(name, path, controller, { ...options, methods: ['PATCH'] });
  }

  delete(name: string, path: string, controller: Controller, options: RouteOptions = {}): this {
    return this.route(name, path, controller, { ...options, methods: ['DELETE'] });
  }

  guard(rule: FirewallRule): this {
    this.firewall.push(rule);
    return this;
  }

  /** A profiler panel of the app's own, fed by `ctx.record(name, entry)` (app-panel.ts). */
  panel<Entry = unknown>(name: string, panel: AppPanel<Entry>): this {
    checkPanel(name, panel);
    this.panels.set(name, panel as AppPanel);
    return this;
  }
}

/** The entry point of an app file: `export const app = createApp(...)` then `app.get(...)`. */
export function createApp(options: AppOptions = {}): App {
  return new App(options);
}

/**
 * An inline arrow function has no name, and a stack trace shows its frame as `<anonymous>`: it is
 * given the route's name, which the router panel already lists as its controller. A named function
 * (a declaration, or a const it was assigned to) keeps its own.
 */
function nameAnonymous(controller: Controller, route: string): Controller {
  if (controller.name !== '') return controller;
  try {
    Object.defineProperty(controller, 'name', { value: route, configurable: true });
  } catch {
    // a frozen function keeps no name: its frame stays `<anonymous>`
  }
  return controller;
}
