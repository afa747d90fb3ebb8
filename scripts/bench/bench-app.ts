// The app every contender of bench:http serves: one static route, one parametric route, and a 404.
import { createApp } from '../../index.js';

export const app = createApp({ name: 'bench' })
  .get('static', '/static', function staticRoute() {
    return { ok: true };
  })
  .get('hello', '/hello/{name}', function hello({ params }) {
    return { hello: params.name };
  })
  .get('boom', '/boom', function boom() {
    throw new Error('Bench failure on purpose.');
  });
