const T = '#appkernel-toolbar';

/**
 * The toolbar's stylesheet, every selector under its id: the page's own rules are reverted inside
 * it first, then these (an id outweighs the page's class and element selectors). Details open
 * above the bar on hover or focus (a tap focuses a section); they are positioned against the
 * fixed toolbar, not the bar, so the bar's own horizontal scroll never clips them.
 */
export const TOOLBAR_STYLES = [
  `${T},${T} *{all:revert;box-sizing:border-box}`,
  `${T}{position:fixed;left:0;right:0;bottom:0;z-index:2147483647;font:13px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#e5e7eb;text-align:left}`,
  `${T} [hidden]{display:none!important}`,
  `${T} a{color:#93c5fd;text-decoration:none}${T} a:hover{text-decoration:underline}`,
  `${T} .ak-min{position:absolute;opacity:0;width:1px;height:1px;margin:0;pointer-events:none}`,
  `${T} .ak-bar{display:flex;align-items:stretch;min-height:36px;background:#111827;box-shadow:0 -1px 4px rgba(0,0,0,.25);overflow-x:auto;overflow-y:hidden;scrollbar-width:thin}`,
  `${T} .ak-bar>*{flex:none;display:flex;align-items:center;gap:6px;padding:0 10px;border-left:1px solid #374151;white-space:nowrap}`,
  `${T} .ak-bar>.ak-logo{border-left:0;color:#fff;font-weight:700}`,
  `${T} .ak-s{cursor:default;outline:0}${T} .ak-s:hover,${T} .ak-s:focus-within{background:#1f2937}`,
  `${T} .ak-s:focus-visible{box-shadow:inset 0 0 0 2px #93c5fd}`,
  `${T} .ak-route{max-width:24ch;overflow:hidden;text-overflow:ellipsis}`,
  `${T} .ak-label{color:#9ca3af}`,
  `${T} .ak-quiet{color:#9ca3af}`,
  `${T} .ak-pill{display:inline-block;padding:0 7px;line-height:20px;border-radius:10px;background:#4b5563;color:#fff;font-weight:700}`,
  `${T} .ak-s2{background:#15803d}${T} .ak-s3{background:#1d4ed8}${T} .ak-s4{background:#c2410c}${T} .ak-s5,${T} .ak-err{background:#b91c1c}${T} .ak-warn{background:#b45309}`,
  `${T} .ak-det{display:none;position:absolute;left:0;bottom:100%;width:min(520px,100%);max-height:min(60vh,420px);overflow:auto;padding:10px 12px;background:#1f2937;border:1px solid #374151;border-bottom:0;border-radius:6px 6px 0 0;white-space:normal;cursor:auto}`,
  `${T} .ak-s:hover>.ak-det,${T} .ak-s:focus-within>.ak-det{display:block}`,
  `${T} .ak-det b{display:block;margin:0 0 6px;color:#fff;font-size:14px}`,
  `${T} .ak-det table{width:100%;border-collapse:collapse;table-layout:auto}`,
  `${T} .ak-det th,${T} .ak-det td{padding:3px 6px;border-bottom:1px solid #374151;text-align:left;vertical-align:top;overflow-wrap:anywhere}`,
  `${T} .ak-det th{color:#9ca3af;font-weight:400;white-space:nowrap}`,
  `${T} .ak-fetch-list td:not(:nth-child(3)){white-space:nowrap}`,
  `${T} .ak-more{margin:8px 0 0}`,
  `${T} .ak-bar>.ak-hide{margin-left:auto;cursor:pointer;color:#9ca3af;font-size:16px}`,
  `${T} .ak-tab{display:none;position:absolute;right:0;bottom:0;padding:6px 10px;background:#111827;color:#fff;font-weight:700;border-radius:6px 0 0 0;cursor:pointer}`,
  `${T} .ak-min:checked~.ak-bar{display:none}${T} .ak-min:checked~.ak-tab{display:block}`,
  `${T} .ak-min:focus-visible~.ak-bar .ak-hide,${T} .ak-min:focus-visible~.ak-tab{box-shadow:inset 0 0 0 2px #93c5fd}`,
  `@media (max-width:640px){.appkernel-toolbar-spacer{height:64px!important}${T} .ak-bar{flex-wrap:wrap}${T} .ak-bar>*{padding:0 7px;min-height:30px}${T} .ak-route{max-width:14ch}}`,
].join('\n');
