// Fastify answering the bench routes, with its defaults (its own 404 handler).
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/static', async () => ({ ok: true }));
app.get<{ Params: { name: string } }>('/hello/:name', async (request) => ({ hello: request.params.name }));

const address = await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
console.log(`listening at ${address}/`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
