// The ceiling: a bare Fastify route in its own process, with no plugins, on the same Fastify version.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/hello', async () => ({ ok: true }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.send?.('ready');
