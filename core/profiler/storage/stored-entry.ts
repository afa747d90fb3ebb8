import type { Profile } from '../profile.js';
import { summarize } from './index-line.js';
import type { StoredEntry } from './profile-storage.js';
import { toStoredForm } from './stored-form.js';

/** A built profile as a store writes it (ProfileStore.writeBatch): its summary and its stored form's JSON. */
export function storedEntry(profile: Profile): StoredEntry {
  return { summary: summarize(profile), json: Buffer.from(JSON.stringify(toStoredForm(profile)), 'utf8') };
}
