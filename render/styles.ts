import { EXCEPTION_STYLES } from './exception-styles.js';

/** The pages' one stylesheet, inlined by the layout: compact, no external assets, no JavaScript. */
export const STYLES = `*{box-sizing:border-box}
body{margin:0;font:14px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2328;background:#f3f4f6}
a{color:#0a58ca}
code,pre,.mono{font:12.5px/1.5 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
pre{margin:0;white-space:pre-wrap;overflow-wrap:anywhere}
h1,h2,h3{line-height:1.25;margin:0 0 .5em}
h2{font-size:18px}h3{font-size:15px}
.top{background:#111827;color:#d1d5db;padding:10px 24px;display:flex;gap:20px;align-items:center}
.top a{color:#f9fafb;text-decoration:none}.top .brand{font-weight:700}
.wrap{max-width:1280px;margin:0 auto;padding:20px 24px}
.hero{color:#fff;background:#374151;padding:24px 0}
.hero.s4{background:#9a3412}.hero.s5{background:#991b1b}
.hero h1{font-size:15px;font-weight:600;opacity:.9}
.hero .msg{font-size:22px;margin:8px 0;overflow-wrap:anywhere}
.hero .req{opacity:.9;overflow-wrap:anywhere}.hero a{color:#fff}.hero .referer{font-size:13px;font-weight:400;margin-left:10px}
.card{background:#fff;border:1px solid #e5e7eb;border-radius:8px;padding:16px 20px;margin:0 0 16px;overflow:auto}
.muted{color:#6b7280}.empty{color:#6b7280;font-style:italic}
table{width:100%;border-collapse:collapse}
th,td{text-align:left;vertical-align:top;padding:6px 10px;border-bottom:1px solid #e5e7eb;overflow-wrap:anywhere}
th{background:#f9fafb;font-size:12px;color:#4b5563;white-space:nowrap}
.results td{white-space:nowrap}.results td.url{white-space:normal;min-width:26ch}
.kv th{width:min(220px,35%);background:none;font-size:13px;white-space:normal}
td.mono,td .url-text{overflow-wrap:break-word}
.b{display:inline-block;padding:0 7px;border-radius:9px;font-size:11.5px;font-weight:600;background:#e5e7eb;color:#374151;white-space:nowrap}
.s2 .b,.b.s2,.b.ok{background:#dcfce7;color:#166534}.b.s3{background:#dbeafe;color:#1e40af}
.b.s4,.b.warn,.log-warning .b{background:#fef3c7;color:#92400e}.b.s5,.b.err,.log-error .b{background:#fee2e2;color:#991b1b}
.log-error{background:#fef2f2}.log-warning{background:#fffbeb}
.log td:first-child{width:110px;white-space:nowrap}.log td:nth-child(2){width:90px}
.log small{display:block;color:#6b7280}
.ctx{margin-top:4px;padding:6px 8px;background:#f3f4f6;border-radius:4px;font-size:12px;max-height:320px;overflow:auto}
.exc h3{font-size:17px;margin:0}.exc .cls{color:#6b7280;font-size:13px}.exc .msg{font:600 14px/1.45 system-ui,sans-serif;margin:4px 0}.exc .by{color:#9a3412;font-size:12px;font-weight:600}
.frames{margin:12px 0 0;padding-left:2.5em}.frames li{padding:3px 0}
.fn{font-weight:600}.file{color:#4b5563}
details>summary{cursor:pointer;color:#4b5563;padding:3px 0}
.code{margin:6px 0 8px;background:#0f172a;color:#e2e8f0;border-radius:6px;padding:6px 0;overflow:auto;white-space:pre}
.code span{display:block;padding:0 12px}.code .hl{background:#7f1d1d}
.code i{display:inline-block;width:5ch;margin-right:4px;text-align:right;color:#64748b;font-style:normal;user-select:none}
.trace{background:#f9fafb;border:1px solid #e5e7eb;border-radius:6px;padding:10px 12px;margin:6px 0 14px}
.layout{display:grid;grid-template-columns:230px minmax(0,1fr);gap:20px;align-items:start}.layout>*{min-width:0}
@media (max-width:800px){.layout{grid-template-columns:minmax(0,1fr)}}
.menu{list-style:none;margin:0;padding:6px;background:#fff;border:1px solid #e5e7eb;border-radius:8px}
.menu a{display:flex;justify-content:space-between;gap:8px;padding:7px 10px;border-radius:6px;color:#1f2328;text-decoration:none}
.menu a:hover{background:#f3f4f6}.menu a.on{background:#111827;color:#fff}
.summary dl{display:flex;flex-wrap:wrap;gap:4px 28px;margin:8px 0 0}.summary dt{font-size:12px;opacity:.75}.summary dd{margin:0;font-weight:600}
.db-failed{background:#fef2f2}.db-failed .err{color:#991b1b;margin:4px 0}.db-slow{background:#fffbeb}
.db-sql,.db-runnable{white-space:pre-wrap;overflow-wrap:anywhere}.db-explain{margin:6px 0 0}.db-queries td:first-child,.db-queries td:nth-child(2),.db-queries td:nth-child(3){white-space:nowrap}
.future-note{color:#b45309;font-weight:600}
.timeline td:not(:nth-child(2)){white-space:nowrap}
.track{position:relative;height:12px;min-width:160px;background:#f3f4f6;border-radius:3px}
.bar{position:absolute;top:0;height:12px;min-width:2px;background:#2563eb;border-radius:3px}
.filters{margin:0 0 10px;display:flex;flex-wrap:wrap;gap:6px}
.filters label{padding:3px 10px;border:1px solid #d1d5db;border-radius:14px;cursor:pointer;background:#fff}
.lf{position:absolute;opacity:0}
#lf-all:checked~.filters [for=lf-all],#lf-error:checked~.filters [for=lf-error],#lf-warning:checked~.filters [for=lf-warning],#lf-info:checked~.filters [for=lf-info],#lf-debug:checked~.filters [for=lf-debug]{background:#111827;color:#fff}
#lf-all:focus-visible~.filters [for=lf-all],#lf-error:focus-visible~.filters [for=lf-error],#lf-warning:focus-visible~.filters [for=lf-warning],#lf-info:focus-visible~.filters [for=lf-info],#lf-debug:focus-visible~.filters [for=lf-debug]{outline:2px solid #2563eb;outline-offset:2px}
#lf-error:checked~table tbody tr:not(.log-error),#lf-warning:checked~table tbody tr:not(.log-warning),#lf-info:checked~table tbody tr:not(.log-info),#lf-debug:checked~table tbody tr:not(.log-debug){display:none}
form.search{display:grid;grid-template-columns:repeat(auto-fill,minmax(150px,1fr));gap:10px;align-items:end}
form.search label{display:flex;flex-direction:column;font-size:12px;color:#4b5563;gap:2px}
input,select,button{font:inherit;padding:5px 8px;border:1px solid #d1d5db;border-radius:5px;background:#fff}
button{background:#111827;color:#fff;border-color:#111827;cursor:pointer}
${EXCEPTION_STYLES}`;

/** The production error page's few rules: it is sent to anyone, often, and needs none of the profiler's. */
export const PRODUCTION_STYLES = `*{box-sizing:border-box}
body{margin:0;font:14px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2328;background:#f3f4f6}
h1{line-height:1.25;margin:0 0 .5em}
.wrap{max-width:1280px;margin:0 auto;padding:20px 24px}
.hero{color:#fff;background:#374151;padding:24px 0}
.hero.s4{background:#9a3412}.hero.s5{background:#991b1b}
.hero .msg{font-size:22px;margin:8px 0}`;
