import { compileMatcher } from '../routing/compiled-matcher.js';
import { RouteCollection } from '../routing/route-collection.js';
import { UrlGenerator } from '../routing/url-generator.js';
import type { Controller, RecordingTools } from './controller.js';
import type { KernelApp } from './kernel-app.js';
import { onKernelResponseDebugHeaders } from './debug-headers-listener.js';
import { ControllerListener } from './controller-listener.js';
import { ErrorListener } from './error-listener.js';
import type { ErrorRenderer } from './error-renderer.js';
import { FirewallListener } from './firewall-listener.js';
import { Kernel } from './kernel.js';
import { KernelEvents } from './kernel-events.js';
import { RouterListener } from './router-listener.js';
import { onKernelView } from './view-listener.js';

/** Routes and controllers a kernel extension (the profiler) serves ahead of the app's own, outside every firewall. */
export interface KernelExtension {
  routes?: RouteCollection;
  controllers?: Map<string, Controller>;
  register?(kernel: Kernel, routes: RouteCollection): void;
}

export interface BuildKernelOptions {
  debug: boolean;
  root: string;
  requestTimeoutMs?: number;
  extensions?: KernelExtension[];
  /** the HTML of error pages */
  errorRenderer: ErrorRenderer;
  /** the stopwatch, dump() and record() of every controller's context (core/debug/recording-tools.ts) */
  recording: RecordingTools;
}

/** All routes in matching order: the extensions' first, then the app's. */
export function combinedRoutes(app: KernelApp, extensions: readonly KernelExtension[] = []): RouteCollection {
  const routes = new RouteCollection();
  for (const source of [...extensions.map((e) => e.routes), app.routes]) {
    for (const route of source?.all() ?? []) {
      routes.add(route.name, {
        path: route.path,
        methods: route.methods,
        requirements: { ...route.requirements },
        defaults: { ...route.defaults },
        controller: route.controller,
      });
    }
  }
  return routes;
}

/** A kernel wired with the standard listeners, in Symfony's priorities. */
export function buildKernel(app: KernelApp, options: BuildKernelOptions): Kernel {
  const extensions = options.extensions ?? [];
  const routes = combinedRoutes(app, extensions);
  const matcher = compileMatcher(routes);
  const controllers = new Map<string, Controller>(app.controllers);
  for (const extension of extensions) for (const [name, fn] of extension.controllers ?? []) controllers.set(name, fn);
  const kernel = new Kernel({
    debug: options.debug,
    requestTimeoutMs: options.requestTimeoutMs ?? app.options.requestTimeoutMs,
    resolveController: (route) => controllers.get(route),
  });
  const d = kernel.dispatcher;
  d.addListener(
    KernelEvents.REQUEST,
    'RouterListener::onKernelRequest',
    new RouterListener(() => matcher, { stackTraces: options.debug }).onKernelRequest,
    32,
  );
  const outsideFirewall = new Set(
    extensions.flatMap((extension) => extension.routes?.all().map((route) => route.name) ?? []),
  );
  d.addListener(
    KernelEvents.REQUEST,
    'FirewallListener::onKernelRequest',
    new FirewallListener(app.firewall, outsideFirewall).onKernelRequest,
    8,
  );
  const controllerListener = new ControllerListener(options.recording, (name, params, opts, baseUrl) =>
    new UrlGenerator(routes, baseUrl).generate(name, params, opts),
  );
  d.addListener(
    KernelEvents.CONTROLLER,
    'ControllerListener::onKernelController',
    controllerListener.onKernelController,
    0,
  );
  d.addListener(
    KernelEvents.CONTROLLER_ARGUMENTS,
    'ControllerListener::onKernelControllerArguments',
    controllerListener.onKernelControllerArguments,
    0,
  );
  d.addListener(KernelEvents.VIEW, 'ViewListener::onKernelView', onKernelView, 0);
  d.addListener(
    KernelEvents.EXCEPTION,
    'ErrorListener::onKernelException',
    new ErrorListener({ debug: options.debug, root: options.root, renderer: options.errorRenderer, routes })
      .onKernelException,
    -128,
  );
  if (options.debug)
    d.addListener(KernelEvents.RESPONSE, 'DebugHeadersListener::onKernelResponse', onKernelResponseDebugHeaders, -100);
  for (const extension of extensions) extension.register?.(kernel, routes);
  return kernel;
}
