import type { EventsData } from '../profile.js';
import { hasKeys, isPlain, jsonNumber as number, quote } from './json-parts.js';

const CALL_KEYS = ['listener', 'duration', 'stoppedPropagation', 'start'] as const;
const STOPPED_START = ',"stoppedPropagation":true,"start":';
const GOES_ON_START = ',"stoppedPropagation":false,"start":';
const STOPPED_END = ',"stoppedPropagation":true}';
const GOES_ON_END = ',"stoppedPropagation":false}';

/** '{"listener":<name>,"duration":' by listener name: the same few names in every profile, the text made once. Bounded. */
const prefixes = new Map<string, string>();
const MAX_PREFIXES = 4096;

function listenerPrefix(listener: string): string {
  let prefix = prefixes.get(listener);
  if (prefix === undefined) {
    if (prefixes.size >= MAX_PREFIXES) prefixes.clear();
    prefixes.set(listener, (prefix = `{"listener":${quote(listener)},"duration":`));
  }
  return prefix;
}

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
    if (
      !isPlain(event) ||
      !hasKeys(event, ['name', 'listeners']) ||
      typeof event.name !== 'string' ||
      !Array.isArray(event.listeners)
    )
      return undefined;
    text += `${e === 0 ? '' : ','}{"name":${quote(event.name)},"listeners":[`;
    const { listeners } = event;
    for (let l = 0; l < listeners.length; l++) {
      const call = listeners[l];
      if (!isPlain(call)) return undefined;
      const withStart = call.start !== undefined;
      if (
        !hasKeys(call, withStart ? CALL_KEYS : CALL_KEYS.slice(0, 3)) ||
        typeof call.listener !== 'string' ||
        typeof call.duration !== 'number' ||
        typeof call.stoppedPropagation !== 'boolean' ||
        (withStart && typeof call.start !== 'number')
      )
        return undefined;
      if (l > 0) text += ',';
      text += listenerPrefix(call.listener) + number(call.duration);
      if (withStart) text += (call.stoppedPropagation ? STOPPED_START : GOES_ON_START) + number(call.start!) + '}';
      else text += call.stoppedPropagation ? STOPPED_END : GOES_ON_END;
    }
    text += ']}';
  }
  return `${text}]}`;
}
