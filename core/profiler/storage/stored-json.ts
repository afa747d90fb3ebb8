import { serialisedJson } from '../../debug/request-recording.js';
import type { Profile } from '../profile.js';
import { eventsJson } from './events-json.js';
import { toStoredForm } from './stored-form.js';

/**
 * The JSON text of the profile's stored form, the text JSON.stringify(toStoredForm(profile)) gives:
 * a panel whose JSON was made once (serialiseOnce: the configuration, the same for every request)
 * is spliced in as that text instead of being serialised again, and the events panel is written
 * field by field (events-json.ts).
 */
export function storedJson(profile: Profile): string {
  const stored = toStoredForm(profile);
  let text = '';
  for (const key of Object.keys(stored) as (keyof Profile)[]) {
    const json = key === 'collectors' ? collectorsJson(stored.collectors) : JSON.stringify(stored[key]);
    if (json !== undefined) text += `${text ? ',' : '{'}${JSON.stringify(key)}:${json}`;
  }
  return `${text || '{'}}`;
}

function collectorsJson(collectors: Profile['collectors']): string | undefined {
  if (typeof collectors !== 'object' || collectors === null) return JSON.stringify(collectors);
  let text = '';
  for (const name of Object.keys(collectors) as (keyof Profile['collectors'])[]) {
    const value = collectors[name];
    const json = serialisedJson(value) ?? (name === 'events' ? eventsJson(value as Profile['collectors']['events']) : undefined) ?? JSON.stringify(value);
    if (json !== undefined) text += `${text ? ',' : '{'}${JSON.stringify(name)}:${json}`;
  }
  return `${text || '{'}}`;
}
