import type { Profile } from '../profile.js';
import { writeEvents } from './events-json.js';
import { hasKeys, isPlain } from './json-parts.js';
import { JsonSink } from './json-sink.js';
import { type PanelWriter, writeDump, writeHttpClient, writeLog, writePanel, writeRequest, writeRouter, writeSecurity, writeTime } from './panel-json.js';
import { toStoredForm } from './stored-form.js';

/**
 * The JSON text of the profile's stored form, the text JSON.stringify(toStoredForm(profile)) gives
 * (writeStoredJson's).
 */
export function storedJson(profile: Profile): string {
  const sink = new JsonSink();
  writeStoredJson(sink, profile);
  return sink.text();
}

/**
 * Writes the JSON of the profile's stored form into `sink` as UTF-8: a panel whose JSON was made
 * once (serialiseOnce: the configuration, the same for every request) is copied in as it is, and
 * the panels every profile has are written field by field (events-json.ts, panel-json.ts), as are
 * the profile's own fields; anything else as JSON.stringify writes it.
 */
export function writeStoredJson(sink: JsonSink, profile: Profile): void {
  const stored = toStoredForm(profile);
  const start = sink.at;
  if (summaryFields(sink, stored)) return;
  sink.at = start;
  let first = true;
  for (const key of Object.keys(stored) as (keyof Profile)[]) {
    const mark = sink.at;
    sink.ascii(first ? '{' : ',');
    sink.string(key);
    sink.ascii(':');
    if (key === 'collectors' ? writeCollectors(sink, stored.collectors) : writePanel(sink, stored[key])) first = false;
    else sink.at = mark;
  }
  sink.ascii(first ? '{}' : '}');
}

const PROFILE_KEYS = ['version', 'token', 'status', 'ip', 'method', 'url', 'time', 'duration', 'collectors'] as const;

/** The profile as build-profile.ts makes it, its own fields first; false for any other shape. */
function summaryFields(sink: JsonSink, profile: Profile): boolean {
  if (!isPlain(profile) || !hasKeys(profile, PROFILE_KEYS) || typeof profile.version !== 'number' || typeof profile.token !== 'string' || typeof profile.status !== 'number'
    || typeof profile.ip !== 'string' || typeof profile.method !== 'string' || typeof profile.url !== 'string'
    || typeof profile.time !== 'number' || typeof profile.duration !== 'number') return false;
  sink.ascii('{"version":');
  sink.number(profile.version);
  sink.ascii(',"token":');
  sink.string(profile.token);
  sink.ascii(',"status":');
  sink.number(profile.status);
  sink.ascii(',"ip":');
  sink.string(profile.ip);
  sink.ascii(',"method":');
  sink.string(profile.method);
  sink.ascii(',"url":');
  sink.string(profile.url);
  sink.ascii(',"time":');
  sink.number(profile.time);
  sink.ascii(',"duration":');
  sink.number(profile.duration);
  sink.ascii(',"collectors":');
  if (!writeCollectors(sink, profile.collectors)) return false;
  sink.ascii('}');
  return true;
}

type Panels = Profile['collectors'];
/** The panels written field by field, by name. */
const WRITERS: { [name in keyof Panels]?: PanelWriter<Panels[name]> } = {
  request: writeRequest, events: writeEvents, time: writeTime, log: writeLog, router: writeRouter, security: writeSecurity, http_client: writeHttpClient, dump: writeDump,
};

/** The panels, each as its writer or JSON.stringify writes it; false when JSON has nothing to write for them. */
function writeCollectors(sink: JsonSink, collectors: Panels): boolean {
  if (typeof collectors !== 'object' || collectors === null) return writePanel(sink, collectors);
  let first = true;
  sink.ascii('{');
  for (const name of Object.keys(collectors) as (keyof Panels)[]) {
    const mark = sink.at;
    if (!first) sink.ascii(',');
    sink.string(name);
    sink.ascii(':');
    if (writePanel(sink, collectors[name], WRITERS[name] as PanelWriter<unknown> | undefined)) first = false;
    else sink.at = mark;
  }
  sink.ascii('}');
  return true;
}
