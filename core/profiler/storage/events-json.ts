import type { EventsData } from '../profile.js';

/** Names quoted as JSON strings, by name: event and listener names are the same few in every profile. Bounded. */
const quoted = new Map<string, string>();
const MAX_QUOTED = 4096;
const CALL_KEYS = ['listener', 'duration', 'stoppedPropagation', 'start'] as const;

/**
 * The events panel's JSON text, the one JSON.stringify gives, written field by field: JSON.stringify
 * scans every name for characters to escape and formats the panel generically, which costs about
 * twice as much for this panel (tens of listener calls with the same names every request).
 * Undefined when the panel is not exactly of the shape the events collector makes (then the
 * caller serialises it generically).
 */
export function eventsJson(panel: EventsData): string | undefined {
  if (!isPlain(panel) || !hasKeys(panel, ['events']) || !Array.isArray(panel.events)) return undefined;
  let text = '{"events":[';
  const { events } = panel;
  for (let e = 0; e < events.length; e++) {
    const event = events[e];
    if (!isPlain(event) || !hasKeys(event, ['name', 'listeners']) || typeof event.name !== 'string' || !Array.isArray(event.listeners)) return undefined;
    text += `${e === 0 ? '' : ','}{"name":${quote(event.name)},"listeners":[`;
    const { listeners } = event;
    for (let l = 0; l < listeners.length; l++) {
      const call = listeners[l];
      if (!isPlain(call)) return undefined;
      const withStart = call.start !== undefined;
      if (!hasKeys(call, withStart ? CALL_KEYS : CALL_KEYS.slice(0, 3)) || typeof call.listener !== 'string' || typeof call.duration !== 'number'
        || typeof call.stoppedPropagation !== 'boolean' || (withStart && typeof call.start !== 'number')) return undefined;
      text += `${l === 0 ? '' : ','}{"listener":${quote(call.listener)},"duration":${number(call.duration)},"stoppedPropagation":${call.stoppedPropagation}`;
      text += withStart ? `,"start":${number(call.start!)}}` : '}';
    }
    text += ']}';
  }
  return `${text}]}`;
}

/** A plain object, whose JSON is its own enumerable fields (no toJSON of a class of its own). */
function isPlain(value: unknown): value is object {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return (proto === Object.prototype || proto === null) && typeof (value as { toJSON?: unknown }).toJSON !== 'function';
}

/** Whether `value`'s own enumerable keys are exactly `keys`, in that order (the order JSON.stringify writes them in). */
function hasKeys(value: object, keys: readonly string[]): boolean {
  let i = 0;
  for (const key in value) {
    if (key !== keys[i] || !Object.prototype.hasOwnProperty.call(value, key)) return false;
    i++;
  }
  return i === keys.length;
}

function quote(name: string): string {
  let text = quoted.get(name);
  if (text === undefined) {
    if (quoted.size >= MAX_QUOTED) quoted.clear();
    quoted.set(name, text = JSON.stringify(name));
  }
  return text;
}

/** As JSON.stringify writes a number: NaN and the infinities as null. */
function number(value: number): string {
  return Number.isFinite(value) ? String(value) : 'null';
}
