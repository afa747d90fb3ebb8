/**
 * Rules for the blocks of the exception pages and panel that explain a routing miss, colour
 * code excerpts and link frames to an editor. Kept apart from the layout rules in styles.ts.
 */
export const EXCEPTION_STYLES = `.routing-miss h2 code{font-size:15px}
.did-you-mean{margin:0 0 12px}.did-you-mean ul{margin:4px 0 0;padding-left:1.4em}.did-you-mean li{padding:2px 0}
.route-miss td:nth-child(3){white-space:nowrap}
.route-miss .miss-method td:last-child,.route-miss .miss-requirement td:last-child,.route-miss .miss-trailing-slash td:last-child{color:#9a3412;font-weight:600}
a.editor{font-size:12px;margin-left:6px}
details.trace-text>summary{font-size:12.5px}
.code span span{display:inline;padding:0}
.code .call{background:#334155}.excerpt-above{font-size:12.5px}
h2 a.log-panel{font-size:13px;font-weight:400;margin-left:8px}
.tok-keyword,.tok-built_in,.tok-literal{color:#f472b6}.tok-string,.tok-regexp{color:#86efac}.tok-number{color:#fdba74}
.tok-comment{color:#94a3b8;font-style:italic}.tok-title,.tok-title.function_{color:#93c5fd}.tok-title.class_,.tok-type{color:#fcd34d}
.tok-params,.tok-variable,.tok-attr,.tok-property{color:#e2e8f0}.tok-meta,.tok-subst{color:#c4b5fd}
`;
