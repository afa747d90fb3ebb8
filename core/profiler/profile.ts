/**
 * The one data model behind every view of a request (ARCHITECTURE.md): the HTML
 * panels, the CLI and the JSON endpoint all read this plain JSON data.
 */

import type { LogLevel, LogRecord } from '../log/log-record.js';
import type { ExceptionData } from '../kernel/exception-data.js';
import type { ListenerCall, Phase, SecurityData } from '../kernel/trace-data.js';

export type { LogLevel, LogRecord } from '../log/log-record.js';
export type { CodeExcerpt, ExceptionData, ExceptionRecord, Frame } from '../kernel/exception-data.js';
export type { ListenerCall, Phase, SecurityData } from '../kernel/trace-data.js';
export type { RouteExplanation, RouteVerdict } from '../routing/explain.js';
import type { RouteExplanation } from '../routing/explain.js';
import type { ConfigData, CustomPanelData, DumpData, HttpClientData, MemoryData, Span } from './panel-data.js';
import type { DatabaseData } from './database-data.js';
export type { DatabaseData, DatabaseQueryData, QueryGroupData, RepeatedQueryData } from './database-data.js';
export type {
  ConfigData,
  CustomPanelData,
  DumpData,
  DumpNode,
  HttpCallData,
  HttpClientData,
  MemoryData,
  Span,
} from './panel-data.js';

export interface BodyData {
  size: number;
  contentType: string | null;
  /** utf-8 text, cut at the cap; form fields that look secret are redacted */
  text: string;
  truncated: boolean;
}

/** An HTML or JSON body's shape as a hash: tags with ids and classes, or keys and value types. */
export interface BodyStructure {
  kind: 'html' | 'json';
  /** elements (HTML) or values (JSON) */
  nodes: number;
  /** 8 hexadecimal digits */
  hash: string;
}

export interface RequestData {
  method: string;
  url: string;
  /**
   * the address and port the request came in on (the server's own, unlike the Host in `url`): replay and
   * export send there; absent in profiles recorded before it existed, null when unknown
   */
  server?: { address: string; port: number } | null;
  path: string;
  route: string | null;
  routeParams: Record<string, string>;
  controller: string | null;
  query: Record<string, string | string[]>;
  headers: Record<string, string>;
  cookies: Record<string, string>;
  body: BodyData | null;
  response: {
    status: number;
    statusText: string;
    headers: Record<string, string>;
    size: number | null;
    contentType: string | null;
    /** the <title> of an HTML response: a cheap fingerprint of the page for replay comparisons */
    title: string | null;
    /**
     * the body's structure, for replay comparisons (see body-fingerprint.ts); null for other content types,
     * streams and bodies over the cap; absent in profiles recorded before it existed
     */
    structure?: BodyStructure | null;
    /**
     * the start of a text body (text/*, JSON, XML), redacted as the request's body is; null for other
     * content types, empty bodies and streams; absent in profiles recorded before it existed
     */
    body?: BodyData | null;
  };
  /** where values were replaced by REDACTED, e.g. "header authorization", "query password" */
  redacted: string[];
}

export interface EventsData {
  events: { name: string; listeners: ListenerCall[] }[];
}

export interface TimeData {
  /** ms */
  duration: number;
  phases: Phase[];
  /** the app's stopwatch spans; absent in profiles recorded before they existed */
  spans?: Span[];
  /** the process's memory at the end of the request; absent in older profiles */
  memory?: MemoryData | null;
}

export interface RouterData {
  route: string | null;
  params: Record<string, string>;
  /** set for GET/HEAD trailing-slash redirects */
  redirect: string | null;
  /** set when no route matched (404/405): why each route missed */
  explain: RouteExplanation[] | null;
  /** the matched route as the app defined it; absent in profiles recorded before it existed */
  definition?: RouteDefinitionData | null;
}

/** A route's definition as the routing panel shows it. */
export interface RouteDefinitionData {
  path: string;
  /** empty: any method */
  methods: string[];
  requirements: Record<string, string>;
  defaults: Record<string, string>;
  controller: string;
}

export interface Collectors {
  request: RequestData;
  exception: ExceptionData | null;
  log: { records: LogRecord[]; errors: number; warnings: number };
  events: EventsData;
  time: TimeData;
  router: RouterData;
  security: SecurityData;
  /** absent in profiles recorded before these panels existed */
  http_client?: HttpClientData;
  /** the queries of the app's pg and mysql2 clients; absent when it ran none */
  db?: DatabaseData;
  dump?: DumpData;
  config?: ConfigData | null;
  /** the app's own panels (app.panel), by name */
  custom?: Record<string, CustomPanelData>;
}

/** The fields the store's index holds, and the list and search read. */
export interface ProfileSummary {
  token: string;
  status: number;
  ip: string;
  method: string;
  url: string;
  /** epoch milliseconds */
  time: number;
  /** ms */
  duration: number;
  /** the matched route's name; null when none matched, absent in summaries stored before routes were indexed */
  route?: string | null;
  /** the server that served it (host name:port), kept by stores several servers share */
  instance?: string;
  /**
   * The order in which profiles reached the store (a sequence the store assigns, never the profile's
   * own clock): set in searches ordered by arrival, absent while a profile is still queued.
   */
  arrival?: number;
}

export interface Profile extends ProfileSummary {
  /** profile format version */
  version: 1;
  collectors: Collectors;
}

/** A profile search: every field optional but limit; strings match as in the search page. */
export interface SearchQuery {
  ip?: string;
  method?: string;
  /** exact ("404") or a class ("4xx") */
  status?: string;
  /** substring of the URL */
  url?: string;
  /** token prefix */
  token?: string;
  /** epoch ms, inclusive */
  since?: number;
  /** epoch ms, inclusive */
  until?: number;
  /** leave out the profiler's own requests (URL path /_profiler or under /_profiler/) */
  hideProfiler?: boolean;
  /** skip this many matches, newest first (pagination) */
  offset?: number;
  limit: number;
  /**
   * 'time' (the default): newest start time first. 'arrival': the last to reach the store first,
   * whatever time it claims, as "latest", the live page and `profiles tail` need.
   */
  order?: 'time' | 'arrival';
  /** with order 'arrival': only profiles that reached the store after this arrival (queued ones left out) */
  afterArrival?: number;
}
