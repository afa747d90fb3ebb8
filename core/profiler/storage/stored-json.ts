import { serialisedJson } from '../../debug/request-recording.js';
import type { Profile } from '../profile.js';
import { eventsJson } from './events-json.js';
import { hasKeys, isPlain, jsonNumber, quote } from './json-parts.js';
import { dumpJson, httpClientJson, logJson, requestJson, routerJson, securityJson, timeJson } from './panel-json.js';
import { toStoredForm } from './stored-form.js';

/**
 * The JSON text of the profile's stored form, the text JSON.stringify(toStoredForm(profile)) gives:
 * a panel whose JSON was made once (serialiseOnce: the configuration, the same for every request)
 * is spliced in as that text instead of being serialised again, and the panels every profile has
 * are written field by field (events-json.ts, panel-json.ts), as are the profile's own fields.
 */
export function storedJson(profile: Profile): string {
  const stored = toStoredForm(profile);
  return summaryFieldsJson(stored) ?? genericJson(stored);
}

const PROFILE_KEYS = ['version', 'token', 'status', 'ip', 'method', 'url', 'time', 'duration', 'collectors'] as const;

/** The profile as build-profile.ts makes it, its own fields first; undefined for any other shape. */
function summaryFieldsJson(profile: Profile): string | undefined {
  if (
    !isPlain(profile) ||
    !hasKeys(profile, PROFILE_KEYS) ||
    typeof profile.version !== 'number' ||
    typeof profile.token !== 'string' ||
    typeof profile.status !== 'number' ||
    typeof profile.ip !== 'string' ||
    typeof profile.method !== 'string' ||
    typeof profile.url !== 'string' ||
    typeof profile.time !== 'number' ||
    typeof profile.duration !== 'number'
  )
    return undefined;
  const collectors = collectorsJson(profile.collectors);
  if (collectors === undefined) return undefined;
  return (
    `{"version":${jsonNumber(profile.version)},"token":${quote(profile.token)},"status":${jsonNumber(profile.status)},"ip":${quote(profile.ip)},"method":${quote(profile.method)},` +
    `"url":${JSON.stringify(profile.url)},"time":${jsonNumber(profile.time)},"duration":${jsonNumber(profile.duration)},"collectors":${collectors}}`
  );
}

function genericJson(stored: Profile): string {
  let text = '';
  for (const key of Object.keys(stored) as (keyof Profile)[]) {
    const json = key === 'collectors' ? collectorsJson(stored.collectors) : JSON.stringify(stored[key]);
    if (json !== undefined) text += `${text ? ',' : '{'}${JSON.stringify(key)}:${json}`;
  }
  return `${text || '{'}}`;
}

type Panels = Profile['collectors'];
/** The panels written field by field, by name. */
const WRITERS: { [name in keyof Panels]?: (panel: Panels[name]) => string | undefined } = {
  request: requestJson,
  events: eventsJson,
  time: timeJson,
  log: logJson,
  router: routerJson,
  security: securityJson,
  http_client: httpClientJson,
  dump: dumpJson,
};

function collectorsJson(collectors: Panels): string | undefined {
  if (typeof collectors !== 'object' || collectors === null) return JSON.stringify(collectors);
  let text = '';
  for (const name of Object.keys(collectors) as (keyof Panels)[]) {
    const value = collectors[name];
    const writer = WRITERS[name] as ((panel: unknown) => string | undefined) | undefined;
    const json = serialisedJson(value) ?? (writer === undefined ? undefined : writer(value)) ?? JSON.stringify(value);
    if (json !== undefined) text += `${text ? ',' : '{'}${quote(name)}:${json}`;
  }
  return `${text || '{'}}`;
}
