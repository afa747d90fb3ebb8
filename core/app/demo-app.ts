import { escapeHtml } from '../http/escape-html.js';
import { Response } from '../http/response.js';
import { createApp, type App } from './app.js';

function loadInventory(): never {
  return checkStock('widgets');
}

function checkStock(item: string): never {
  throw new Error(`The stock of "${item}" could not be counted.`);
}

const HOME = `<!DOCTYPE html>
<html lang="en">
<head><meta charset="UTF-8"><title>appkernel demo</title><link rel="icon" href="data:,"></head>
<body>
<h1>appkernel demo</h1>
<p>Try <a href="/hello/world">/hello/world</a>, <a href="/robots.txt">/robots.txt</a> (404),
<a href="/contact">/contact</a> (405), <a href="/boom">/boom</a> (500), then the
<a href="/_profiler">profiler</a> (debug mode; <code>--no-debug</code> has none).</p>
</body>
</html>
`;

/** The embedded app `app serve` runs when the working directory has no app file. */
export function createDemoApp(): App {
  return createApp({ name: 'demo' })
    .get('home', '/', function home() {
      return Response.html(HOME);
    })
    .get('hello', '/hello/{name}', function hello({ params, log }) {
      log.info('Saying hello to {name}.', { name: params.name });
      return `<!DOCTYPE html><html><head><meta charset="UTF-8"><title>Hello</title><link rel="icon" href="data:,"></head><body><h1>Hello ${escapeHtml(params.name)}!</h1></body></html>`;
    })
    .post('contact', '/contact', function contact({ request }) {
      return { received: request.body.length };
    })
    .route('boom', '/boom', function boom() {
      return loadInventory();
    });
}
