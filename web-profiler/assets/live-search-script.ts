import { URL_SHOWN } from '../views/profile-summary.js';
import { PROFILER_LIVE_PATH, PROFILER_PATH, PROFILER_SEARCH_PATH } from '../../core/profiler/profiler-urls.js';

/**
 * The search page's only script, served as /_profiler/live-search.js (same origin, allowed by the
 * pages' CSP as `script-src 'self'`): it follows /_profiler/live and puts each new profile at the
 * top of the results, built with DOM calls (text is never parsed as HTML). A button pauses it.
 */
export const LIVE_SEARCH_SCRIPT = `(() => {
  'use strict';
  const main = document.querySelector('main');
  const toggle = document.getElementById('live-toggle');
  const state = document.getElementById('live-state');
  if (!main || !toggle || !state || typeof EventSource !== 'function') return;
  const params = new URLSearchParams(location.search);
  const limit = Number(params.get('limit')) || 10;
  const filter = new URLSearchParams();
  // Only the first page follows new profiles: an older page stays as it was.
  if (Number(params.get('offset')) > 0) return;
  for (const name of ['ip', 'method', 'status', 'url', 'token', 'profiler', 'until', 'end']) {
    const value = (params.get(name) || '').trim();
    if (value) filter.set(name, value);
  }
  const counted = /^(?:(\\d+) of )?([\\d,]+)(\\+?) results? found/.exec((main.querySelector('h2') || {}).textContent || '');
  let total = counted ? Number(counted[2].replace(/,/g, '')) : 0;
  // "10,000+": the store stopped counting, and a new profile leaves it at more than that.
  const more = counted !== null && counted[3] === '+';
  let paused = false;
  const waiting = [];
  const el = (tag, attrs, ...children) => {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attrs || {})) node.setAttribute(name, value);
    for (const child of children) node.append(child);
    return node;
  };
  // As the page's own rows (render/escape.ts): bidi controls as their escapes, a URL over ${URL_SHOWN} characters cut, whole in its title.
  const visible = (text) => text.replace(/[\\u202a-\\u202e\\u2066-\\u2069]/g, (c) => '\\\\u' + c.charCodeAt(0).toString(16));
  const cut = (text) => text.length <= ${URL_SHOWN} ? text : text.slice(0, /[\\ud800-\\udbff]/.test(text[${URL_SHOWN - 1}]) ? ${URL_SHOWN - 1} : ${URL_SHOWN}) + '\\u2026';
  // As render/url-html.ts: a <wbr> after each / ? & past the origin, where the URL may wrap.
  const urlText = (value) => {
    const shown = cut(value);
    const origin = (/^[a-z][a-z0-9+.-]*:\\/\\/[^/?#]*/i.exec(shown) || [''])[0];
    const span = el('span', { class: 'url-text' }, visible(origin));
    for (const part of shown.slice(origin.length).split(/([/?&])/)) {
      if (part) span.append(visible(part));
      if (part === '/' || part === '?' || part === '&') span.append(el('wbr'));
    }
    return span;
  };
  const filterLink = (name, value) => {
    const query = new URLSearchParams({ [name]: value, limit: String(limit) });
    const link = el('a', { href: '${PROFILER_SEARCH_PATH}?' + query.toString() }, name === 'url' ? urlText(value) : visible(cut(value)));
    if (value.length > ${URL_SHOWN}) link.title = visible(value);
    return link;
  };
  const pad = (n) => String(n).padStart(2, '0');
  const when = (ms) => {
    const d = new Date(ms);
    return d.getUTCFullYear() + '-' + pad(d.getUTCMonth() + 1) + '-' + pad(d.getUTCDate()) + ' ' + pad(d.getUTCHours()) + ':' + pad(d.getUTCMinutes()) + ':' + pad(d.getUTCSeconds());
  };
  // As the page's own rows (render/format.ts formatMs): 0.42 ms, 12.3 ms, 1204 ms.
  const ms = (n) => !Number.isFinite(n) ? '? ms' : n < 1 ? n.toFixed(2) + ' ms' : n < 100 ? n.toFixed(1) + ' ms' : Math.round(n) + ' ms';
  const family = (status) => { const f = Math.floor(status / 100); return f >= 1 && f <= 5 ? 's' + f : 's0'; };
  const tbody = () => {
    let body = main.querySelector('table tbody');
    if (body) return body;
    const head = el('tr', {}, ...['Status', 'IP', 'Method', 'URL', 'Time', 'Token', 'Route', 'Duration'].map((t) => el('th', {}, t)));
    body = el('tbody');
    main.append(el('div', { class: 'card' }, el('table', { class: 'results' }, el('thead', {}, head), body)));
    return body;
  };
  const show = (row) => {
    const body = tbody();
    const tr = el('tr', { 'data-live': '' },
      el('td', {}, el('span', { class: 'b ' + family(row.status) }, String(row.status))),
      el('td', {}, filterLink('ip', row.ip)), el('td', {}, filterLink('method', row.method)), el('td', { class: 'url' }, filterLink('url', row.url)),
      el('td', {}, el('time', { datetime: new Date(row.time).toISOString().slice(0, 19) + 'Z' }, when(row.time))),
      el('td', {}, el('a', { class: 'mono', href: '${PROFILER_PATH}/' + encodeURIComponent(row.token) }, row.token)),
      el('td', {}, typeof row.route === 'string' ? el('span', { class: 'mono' }, visible(row.route)) : el('span', { class: 'empty' }, 'none')),
      el('td', {}, ms(row.duration)));
    body.prepend(tr);
    while (body.rows.length > limit) body.deleteRow(body.rows.length - 1);
    const count = main.querySelector('h2');
    if (more) {
      if (count) count.textContent = body.rows.length + ' of ' + counted[2] + '+ results found';
      return;
    }
    total++;
    if (count) count.textContent = (body.rows.length === total ? '' : body.rows.length + ' of ') + total + ' results found';
  };
  const source = new EventSource('${PROFILER_LIVE_PATH}?' + filter.toString());
  source.addEventListener('profile', (event) => {
    const row = JSON.parse(event.data);
    if (paused) waiting.push(row); else show(row);
  });
  source.addEventListener('open', () => { state.textContent = paused ? 'paused' : 'live'; });
  source.addEventListener('error', () => { state.textContent = 'reconnecting'; });
  toggle.addEventListener('click', () => {
    paused = !paused;
    toggle.textContent = paused ? 'Resume live updates' : 'Pause live updates';
    toggle.setAttribute('aria-pressed', String(paused));
    state.textContent = paused ? 'paused' : 'live';
    if (!paused) for (const row of waiting.splice(0)) show(row);
  });
})();
`;
