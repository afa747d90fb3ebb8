/**
 * The toolbar's first script, at the start of the page's <head> so that it runs before the page's
 * own scripts: it wraps fetch and XHR and keeps each call's method, URL, status and debug token
 * (the last 50) until the toolbar's script, at the end of the body, takes them and every later one
 * (window.__appkernelCalls.listen). The same bytes on every page, no data in it; nothing is written
 * to the page here. Under a CSP that refuses inline scripts neither script runs and the page's
 * fetch and XHR stay as they are.
 */
export const TOOLBAR_OBSERVER_SCRIPT = `(function () {
  if (window.__appkernelCalls) return;
  var queue = [];
  var listener = null;
  function report(call) {
    if (listener) { try { listener.apply(null, call); } catch (e) {} return; }
    queue.push(call);
    if (queue.length > 50) queue.shift();
  }
  window.__appkernelCalls = {
    listen: function (f) {
      if (typeof f !== 'function' || listener) return;
      listener = f;
      var taken = queue;
      queue = [];
      for (var i = 0; i < taken.length; i++) report(taken[i]);
    }
  };
  var originalFetch = window.fetch;
  if (typeof originalFetch === 'function') {
    window.fetch = function (input, init) {
      var method = (init && init.method) || (input && typeof input === 'object' && 'method' in input ? input.method : 'GET');
      var url = typeof input === 'string' ? input : input && typeof input === 'object' && 'url' in input ? input.url : String(input);
      var pending = originalFetch.apply(this, arguments);
      pending.then(function (r) {
        try { report([method, r.url || url, r.status, r.headers.get('X-Debug-Token'), r.headers.get('X-Debug-Token-Link')]); } catch (e) {}
      }, function () {
        report([method, url, 'error']);
      });
      return pending;
    };
  }
  var X = window.XMLHttpRequest;
  if (X && X.prototype) {
    var calls = new WeakMap();
    var open = X.prototype.open;
    var send = X.prototype.send;
    X.prototype.open = function (method, url) {
      calls.set(this, [method, url]);
      return open.apply(this, arguments);
    };
    X.prototype.send = function () {
      var xhr = this;
      var call = calls.get(xhr);
      if (call) {
        xhr.addEventListener('loadend', function () {
          try {
            report([call[0], xhr.responseURL || call[1], xhr.status || 'error', xhr.getResponseHeader('X-Debug-Token'), xhr.getResponseHeader('X-Debug-Token-Link')]);
          } catch (e) {}
        });
      }
      return send.apply(this, arguments);
    };
  }
})();`;
