import { serialisedJson } from '../debug/request-recording.js';
import { REDACTED } from '../redaction/index.js';

/** Values shared by many profiles (serialiseOnce: the configuration, a miss's routing panel) walked and found to hold no redaction. */
const clean = new WeakSet<object>();

/** Whether a panel's data holds REDACTED anywhere: in a string, or in an object's key. */
export function showsRedaction(value: unknown): boolean {
  if (typeof value === 'string') return value.includes(REDACTED);
  if (typeof value !== 'object' || value === null) return false;
  if (clean.has(value)) return false;
  if (Array.isArray(value)) {
    for (const item of value) if (showsRedaction(item)) return true;
  } else {
    for (const key in value) {
      if (key.includes(REDACTED) || showsRedaction((value as Record<string, unknown>)[key])) return true;
    }
  }
  if (serialisedJson(value) !== undefined) clean.add(value);
  return false;
}
