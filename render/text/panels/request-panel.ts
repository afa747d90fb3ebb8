import type { Profile } from '../../../core/profiler/profile.js';
import { renderBodyText } from '../body-text.js';
import { renderHeading, renderKeyValues } from '../blocks.js';
import { plural } from '../format.js';
import { terminalSafe } from '../terminal-safe.js';
import type { TextOptions } from '../text-options.js';

type Options = TextOptions;

function queryValue(value: string | string[]): string {
  return Array.isArray(value) ? JSON.stringify(value) : value;
}

/** The request as recorded (values already redacted), then the response, then what was redacted. */
export function renderRequestPanel(profile: Profile, options: Options): string {
  const r = profile.collectors.request;
  const response = r.response;
  const sections: [string, string][] = [
    [
      'Request',
      renderKeyValues(
        [
          ['Method', r.method],
          ['URL', r.url],
          ['Path', r.path],
          ['Route', r.route ?? '(none)'],
          ['Controller', r.controller ?? '(none)'],
          ...Object.entries(r.routeParams).map(([k, v]) => [`Param ${k}`, v] as const),
        ],
        options,
      ),
    ],
    [
      'Query',
      renderKeyValues(
        Object.entries(r.query).map(([k, v]) => [k, queryValue(v)] as const),
        options,
      ),
    ],
    ['Headers', renderKeyValues(Object.entries(r.headers), options)],
    ['Cookies', renderKeyValues(Object.entries(r.cookies), options)],
    ['Body', renderBodyText(r.body, options.color)],
    [
      'Response',
      renderKeyValues(
        [
          ['Status', `${response.status} ${response.statusText}`.trim()],
          ['Content type', response.contentType ?? '(none)'],
          ['Size', response.size == null ? '(unknown)' : plural(response.size, 'byte')],
          ['Title', response.title ?? '(none)'],
        ],
        options,
      ),
    ],
    ['Response headers', renderKeyValues(Object.entries(response.headers), options)],
  ];
  if (r.redacted.length) {
    sections.push(['Redacted', r.redacted.map((where) => `${terminalSafe(where)}\n`).join('')]);
  }
  return sections.map(([title, body]) => renderHeading(title, options.color) + body).join('\n');
}
