import { serialisedJson } from '../../debug/request-recording.js';
import type { Profile } from '../profile.js';
import { toStoredForm } from './stored-form.js';

/**
 * The JSON text of the profile's stored form, the text JSON.stringify(toStoredForm(profile)) gives:
 * a panel whose JSON was made once (serialiseOnce: the configuration, the same for every request)
 * is spliced in as that text instead of being serialised again.
 */
export function storedJson(profile: Profile): string {
  const stored = toStoredForm(profile);
  const { collectors } = stored;
  const names = Object.keys(collectors) as (keyof Profile['collectors'])[];
  if (!names.some((name) => serialisedJson(collectors[name]) !== undefined)) return JSON.stringify(stored);
  let text = '';
  for (const key of Object.keys(stored) as (keyof Profile)[]) {
    const json = key === 'collectors' ? collectorsJson(collectors, names) : JSON.stringify(stored[key]);
    if (json !== undefined) text += `${text ? ',' : '{'}${JSON.stringify(key)}:${json}`;
  }
  return `${text || '{'}}`;
}

function collectorsJson(collectors: Profile['collectors'], names: readonly (keyof Profile['collectors'])[]): string {
  let text = '';
  for (const name of names) {
    const value = collectors[name];
    const json = serialisedJson(value) ?? JSON.stringify(value);
    if (json !== undefined) text += `${text ? ',' : '{'}${JSON.stringify(name)}:${json}`;
  }
  return `${text || '{'}}`;
}
