import type { DumpNode } from '../debug/dump-value.js';
import type { Span } from '../debug/stopwatch.js';

import type { BodyData } from './profile.js';

export type { DumpNode } from '../debug/dump-value.js';
export type { Span } from '../debug/stopwatch.js';

/** One outgoing HTTP call as stored: headers and URL redacted; times in ms since the request started. */
export interface HttpCallData {
  client: 'undici' | 'node:http';
  method: string;
  url: string;
  start: number;
  /** null while still in flight when the request was handed off */
  duration: number | null;
  status: number | null;
  statusText: string;
  requestHeaders: Record<string, string | string[]>;
  responseHeaders: Record<string, string | string[]>;
  requestSize: number | null;
  responseSize: number | null;
  error: string | null;
  timedOut: boolean;
  /** ms from the call's start to its response head; null before it (absent in older profiles) */
  headersAfter?: number | null;
  /** the head arrived but the app had not read the body to its end when the request ended: answered, body not read */
  bodyUnread?: boolean;
  /**
   * the start of a text answer the app read (text/*, JSON, XML), previewed and redacted as the request panel's
   * response body; null for other answers, unread bodies and node:http calls; absent in older profiles
   */
  body?: BodyData | null;
  /** the callee's profile: the response's X-Debug-Token, when it is a token of the kind this store keeps */
  profile?: string | null;
  /** where values were replaced by REDACTED, as in the request panel */
  redacted: string[];
}

export interface HttpClientData {
  calls: HttpCallData[];
  /** ms, the calls' durations added up */
  totalTime: number;
  errors: number;
}

export interface DumpData {
  dumps: { file: string | null; line: number | null; time: number | null; value: DumpNode }[];
}

export interface ConfigData {
  node: string;
  appkernel: string;
  /** the app's package.json name and version, when it has one */
  app: { name: string; version: string } | null;
  appFile: string | null;
  /** the values `app serve` runs with (host, port, retention, timeouts, ...), as text, those left to their default marked "(default)" */
  options: Record<string, string>;
  store: string | null;
  /** the app's own variables (named in its .env files, APP_/APPKERNEL_/app-name prefixed, NODE_ENV), not the host's; secret-looking values redacted */
  env: Record<string, string>;
  redacted: string[];
}

/** The process's memory when the response was ready, in bytes. */
export interface MemoryData {
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
}

/** A panel the app defined (app.panel): its rows as text, made when the request ended. */
export interface CustomPanelData {
  title: string;
  columns: string[];
  rows: string[][];
}
