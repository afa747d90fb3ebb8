import type { EventsData } from '../profile.js';
import { hasKeys, isPlain } from './json-parts.js';
import { JsonSink } from './json-sink.js';

const CALL_KEYS = ['listener', 'duration', 'stoppedPropagation', 'start'] as const;

/**
 * The events panel's JSON, the text JSON.stringify gives, written field by field: JSON.stringify
 * scans every name for characters to escape and formats the panel generically, which costs about
 * twice as much for this panel (tens of listener calls with the same names every request).
 * False when the panel is not exactly of the shape the events collector makes (then the caller
 * serialises it generically, panel-json.ts's writePanel).
 */
export function writeEvents(sink: JsonSink, panel: EventsData): boolean {
  if (!isPlain(panel) || !hasKeys(panel, ['events']) || !Array.isArray(panel.events)) return false;
  sink.ascii('{"events":[');
  const { events } = panel;
  for (let e = 0; e < events.length; e++) {
    const event = events[e];
    if (!isPlain(event) || !hasKeys(event, ['name', 'listeners']) || typeof event.name !== 'string' || !Array.isArray(event.listeners)) return false;
    sink.ascii(e === 0 ? '{"name":' : ',{"name":');
    sink.string(event.name);
    sink.ascii(',"listeners":[');
    const { listeners } = event;
    for (let l = 0; l < listeners.length; l++) {
      const call = listeners[l];
      if (!isPlain(call)) return false;
      const withStart = call.start !== undefined;
      if (!hasKeys(call, withStart ? CALL_KEYS : CALL_KEYS.slice(0, 3)) || typeof call.listener !== 'string' || typeof call.duration !== 'number'
        || typeof call.stoppedPropagation !== 'boolean' || (withStart && typeof call.start !== 'number')) return false;
      sink.ascii(l === 0 ? '{"listener":' : ',{"listener":');
      sink.string(call.listener);
      sink.ascii(',"duration":');
      sink.number(call.duration);
      sink.ascii(call.stoppedPropagation ? ',"stoppedPropagation":true' : ',"stoppedPropagation":false');
      if (withStart) {
        sink.ascii(',"start":');
        sink.number(call.start!);
      }
      sink.ascii('}');
    }
    sink.ascii(']}');
  }
  sink.ascii(']}');
  return true;
}

/** The events panel's JSON text as writeEvents writes it; undefined when it is of another shape. */
export function eventsJson(panel: EventsData): string | undefined {
  const sink = new JsonSink();
  return writeEvents(sink, panel) ? sink.text() : undefined;
}
