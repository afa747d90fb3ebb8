// The app every contender of bench:http serves: one static route, one parametric route, and a 404.
// bench:stages also reads a profile of /log/1000, a request that writes 1,000 log records.
import { createApp } from '../../index.js';

export const app = createApp({ name: 'bench' })
  .get('static', '/static', function staticRoute() {
    return { ok: true };
  })
  .get('hello', '/hello/{name}', function hello({ params }) {
    return { hello: params.name };
  })
  .get('log', '/log/{count}', function logMany({ params, log }) {
    for (let i = 0; i < Number(params.count); i++) log.info('Item {id} loaded', { id: i, cached: i % 3 === 0 });
    return { logged: Number(params.count) };
  })
  .get('boom', '/boom', function boom() {
    throw new Error('Bench failure on purpose.');
  });
