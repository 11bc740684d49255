// The baseline of the server part: a bare Fastify app answering a fixed JSON on the same
// routes, with no store, cookie, CORS or validation. Run as a child process: `PORT=n node bench/server/bare-app.mjs`.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.post('/consent/check', async () => ({
  consentRequired: true,
  consentStateValue: null,
  consentString: null,
  expireCache: false,
}));
app.post('/consent/update', async () => ({ recorded: true, policyVersion: 1 }));
app.get('/healthz', async () => ({ status: 'ok' }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
