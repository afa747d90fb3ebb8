import type { Controller } from '../core/kernel/controller.js';
import type { KernelExtension } from '../core/kernel/build-kernel.js';
import { KernelEvents } from '../core/kernel/kernel-events.js';
import { RouteCollection } from '../core/routing/route-collection.js';
import { ProfilerController } from './profiler-controller.js';
import { ProfilerListener } from './profiler-listener.js';
import type { ProfileIntake } from '../core/profiler/handoff/profile-intake.js';
import { ProfileHandoff } from '../core/profiler/handoff/profile-handoff.js';
import { generateToken } from '../core/profiler/token.js';
import type { AppPanel } from '../core/app/app-panel.js';
import { startHttpClientCapture } from '../core/debug/http-client-capture.js';
import { startDatabaseCapture, type DatabaseCaptureSettings } from '../core/debug/database-capture.js';
import type { EditorLinks } from '../render/editor-link.js';
import type { ConfigData } from '../core/profiler/panel-data.js';
import { RequestRecording } from './recording-listener.js';
import { LiveStreams } from './live-stream.js';
import { instanceKey } from '../core/profiler/instance-proof.js';
import {
  INSTANCE_PROOF_PATH,
  PROFILER_LIVE_PATH,
  PROFILER_LIVE_SCRIPT_PATH,
  PROFILER_PATH,
  PROFILER_SEARCH_PATH,
} from '../core/profiler/profiler-urls.js';

export interface ProfilerExtensionOptions {
  /** the configuration panel's data (versions, app file, options, environment); null: no panel data */
  config?: ConfigData | null;
  /** the app's own panels (app.panel) */
  panels?: ReadonlyMap<string, AppPanel>;
  /** record outgoing HTTP calls (default: yes) */
  httpClient?: boolean;
  /** record the queries of the app's pg and mysql2 clients (the Database panel); false: none (default: the root's frames, no slow threshold) */
  database?: DatabaseCaptureSettings | false;
  /** run controllers in a recording scope: spans, dumps, outgoing calls, the app's panels (default: yes) */
  appRecords?: boolean;
  /** "open in editor" links on the exception panel's app frames (`app serve --editor`) */
  editor?: EditorLinks | null;
}

/** The profiler's pages, matched before the app's routes. */
export function profilerRoutes(): RouteCollection {
  return new RouteCollection()
    .add('_profiler_home', {
      path: `${PROFILER_PATH}/`,
      methods: ['GET'],
      controller: 'ProfilerController::homeAction',
    })
    .add('_profiler_search_results', {
      path: PROFILER_SEARCH_PATH,
      methods: ['GET'],
      controller: 'ProfilerController::searchAction',
    })
    .add('_profiler_live', { path: PROFILER_LIVE_PATH, methods: ['GET'], controller: 'ProfilerController::liveAction' })
    .add('_profiler_live_script', {
      path: PROFILER_LIVE_SCRIPT_PATH,
      methods: ['GET'],
      controller: 'ProfilerController::liveScriptAction',
    })
    .add('_profiler_instance_proof', {
      path: INSTANCE_PROOF_PATH,
      methods: ['GET'],
      controller: 'ProfilerController::instanceProofAction',
    })
    .add('_profiler_explain', {
      path: `${PROFILER_PATH}/explain`,
      methods: ['POST'],
      controller: 'ProfilerController::explainAction',
    })
    .add('_profiler_json', {
      path: `${PROFILER_PATH}/{token}.json`,
      methods: ['GET'],
      controller: 'ProfilerController::jsonAction',
    })
    .add('_profiler', {
      path: `${PROFILER_PATH}/{token}`,
      methods: ['GET'],
      requirements: { token: '.+' },
      controller: 'ProfilerController::panelAction',
    });
}

/**
 * The profiler of one server and its store: the hand-off to the profiler worker and the live
 * streams, shared by the kernels a reload replaces (extension() makes each one's part), and
 * closed with the server before the store.
 */
export class WebProfiler {
  #handoff: ProfileHandoff | null = null;
  readonly #live = new LiveStreams();

  /** `warn`: what the hand-off has to say (a failed worker, a dropped profile), printed as the server's warnings. */
  constructor(
    readonly storage: ProfileIntake,
    private readonly warn: (message: string) => void,
  ) {}

  /** The hand-off to the profiler worker, started with the first kernel that records. */
  get handoff(): ProfileHandoff {
    return (this.#handoff ??= new ProfileHandoff(this.storage, this.warn));
  }

  /** The profiler as a kernel extension: its routes come before the app's, outside every firewall. */
  extension(options: ProfilerExtensionOptions = {}): KernelExtension {
    return profilerExtension(this, options);
  }

  /** Ends the live streams, so that a closing server does not wait for them. */
  endLiveStreams(): void {
    this.#live.endAll();
  }

  /** Ends the live streams and hands the last records to the store (built here if the worker is slow), then stops the worker. */
  async close(): Promise<void> {
    this.#live.endAll();
    await this.#handoff?.close();
    this.#handoff = null;
  }

  get live(): LiveStreams {
    return this.#live;
  }
}

function profilerExtension(profiler: WebProfiler, options: ProfilerExtensionOptions): KernelExtension {
  const storage = profiler.storage;
  const controller = new ProfilerController(storage, options.editor ?? null, profiler.live);
  instanceKey(true); // made now, so that a replay of this server's first profile finds it
  const routes = profilerRoutes();
  const controllers = new Map<string, Controller>([
    ['_profiler_home', controller.homeAction],
    ['_profiler_search_results', controller.searchAction],
    ['_profiler_live', controller.liveAction],
    ['_profiler_live_script', controller.liveScriptAction],
    ['_profiler_instance_proof', controller.instanceProofAction],
    ['_profiler_explain', controller.explainAction],
    ['_profiler_json', controller.jsonAction],
    ['_profiler', controller.panelAction],
  ]);
  return {
    routes,
    controllers,
    register(kernel, allRoutes) {
      const handoff = profiler.handoff;
      const recording =
        options.appRecords === false ? null : new RequestRecording(options.config ?? null, options.panels ?? new Map());
      const listener = new ProfilerListener(handoff, handoff.addRoutes(allRoutes), recording?.atResponse);
      if (recording && options.httpClient !== false) startHttpClientCapture();
      if (recording && options.database !== false)
        startDatabaseCapture(options.database ?? { root: process.cwd(), slowQueryMs: null });
      const reserved = storage.nextToken.bind(storage);
      kernel.beforeHandle.push((_request, trace) => {
        trace.token = generateToken((t) => storage.has(t), reserved);
      });
      if (recording) kernel.beforeHandle.push(recording.begin);
      kernel.dispatcher.addListener(
        KernelEvents.RESPONSE,
        'ProfilerListener::onKernelResponse',
        listener.onKernelResponse,
        -128,
      );
      kernel.dispatcher.addListener(
        KernelEvents.TERMINATE,
        'ProfilerListener::onKernelTerminate',
        listener.onKernelTerminate,
        -1024,
      );
    },
  };
}
