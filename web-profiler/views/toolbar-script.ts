import { PROFILER_PATH } from '../../core/profiler/profiler-urls.js';

/**
 * The toolbar's one script, the same bytes on every page (no data in it, so a page's CSP can
 * allow it by hash). It keeps the toolbar hidden or shown across pages (localStorage), the spacer
 * under the page as tall as the bar, and lists the page's fetch and XHR calls to its own origin
 * (since the page began to load: the observer script saw them) with a link to each one's profile. Every value from a response goes in through
 * textContent or a checked same-origin path, never as markup.
 */
export const TOOLBAR_SCRIPT = `(function () {
  var root = document.getElementById('appkernel-toolbar');
  if (!root || root.getAttribute('data-ready')) return;
  root.setAttribute('data-ready', '1');
  var KEY = 'appkernel-toolbar';
  var box = root.querySelector('.ak-min');
  try { if (localStorage.getItem(KEY) === 'min') box.checked = true; } catch (e) {}
  box.addEventListener('change', function () {
    try { localStorage.setItem(KEY, box.checked ? 'min' : 'open'); } catch (e) {}
  });
  // The spacer keeps the page's end above the bar; a narrow window wraps the bar onto more lines than its CSS height allows.
  var spacer = root.previousElementSibling;
  var bar = root.querySelector('.ak-bar');
  if (spacer && bar && spacer.classList.contains('appkernel-toolbar-spacer') && typeof ResizeObserver === 'function') {
    new ResizeObserver(function () {
      spacer.style.setProperty('height', Math.max(36, bar.offsetHeight) + 'px', 'important');
    }).observe(bar);
  }
  var section = root.querySelector('.ak-fetch');
  var list = root.querySelector('.ak-fetch-list');
  var count = root.querySelector('.ak-fetch-count');
  var seen = 0;
  function profilePath(token, link) {
    if (link) {
      try {
        var u = new URL(link, location.href);
        if (u.origin === location.origin && u.pathname.indexOf('${PROFILER_PATH}/') === 0) return u.pathname;
      } catch (e) {}
    }
    return /^[0-9a-f]{6}$/.test(token || '') ? '${PROFILER_PATH}/' + token : null;
  }
  function cell(row, text, className) {
    var td = document.createElement('td');
    td.textContent = text;
    if (className) td.className = className;
    row.appendChild(td);
    return td;
  }
  function add(method, url, status, token, link) {
    var u;
    try { u = new URL(String(url), location.href); } catch (e) { return; }
    if (u.origin !== location.origin) return;
    seen += 1;
    count.textContent = String(seen);
    section.hidden = false;
    var row = document.createElement('tr');
    var s = cell(row, '');
    var pill = document.createElement('span');
    pill.className = 'ak-pill' + (typeof status === 'number' && status >= 200 && status < 600 ? ' ak-s' + Math.floor(status / 100) : ' ak-err');
    pill.textContent = String(status);
    s.appendChild(pill);
    cell(row, String(method).toUpperCase().slice(0, 16));
    var shown = u.pathname + u.search;
    try { shown = decodeURI(shown); } catch (e) {}
    shown = shown.replace(/[\\u202a-\\u202e\\u2066-\\u2069]/g, function (c) { return '\\\\u' + c.charCodeAt(0).toString(16); });
    cell(row, shown).title = shown;
    var p = cell(row, '');
    var path = profilePath(token, link);
    if (path) {
      var a = document.createElement('a');
      a.setAttribute('href', path);
      a.textContent = path.slice('${PROFILER_PATH}/'.length);
      p.appendChild(a);
    } else p.textContent = '-';
    list.insertBefore(row, list.firstChild);
    while (list.children.length > 50) list.removeChild(list.lastChild);
  }
  // The observer script at the start of <head> saw the page's fetch and XHR calls since it loaded; it hands them over, then each new one.
  var observed = window.__appkernelCalls;
  if (observed && typeof observed.listen === 'function') {
    observed.listen(function (method, url, status, token, link) {
      try { add(method, url, status, token, link); } catch (e) {}
    });
  }
})();`;
