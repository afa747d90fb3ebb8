// Preloaded with `--import` (NODE_OPTIONS) into a process under test: appends the URL of every module
// it resolves (import and import()) and, at exit, of every CommonJS module it required, one a line,
// to the file named by APPKERNEL_TEST_LOADED_LOG.
import { appendFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import { pathToFileURL } from 'node:url';

const log = process.env.APPKERNEL_TEST_LOADED_LOG;
if (!log) throw new Error('log-loaded-modules: set APPKERNEL_TEST_LOADED_LOG to the file to write to');

const hooks = `
import { appendFileSync } from 'node:fs';
let log;
export function initialize(data) { log = data.log; }
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  appendFileSync(log, resolved.url + '\\n');
  return resolved;
}`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`, { data: { log } });

const required = createRequire(import.meta.url).cache;
process.on('exit', () => {
  appendFileSync(
    log,
    Object.keys(required)
      .map((path) => `${pathToFileURL(path).href}\n`)
      .join(''),
  );
});
