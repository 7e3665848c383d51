// Placeholder entry: serves the built client and /health. Replaced by the gateway (issue 5).
import express from 'express';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

const port = Number(process.env.PORT ?? 8080);
const apiUrl = process.env.API_URL ?? `http://127.0.0.1:${process.env.API_PORT ?? 3000}`;
const dist = resolve(process.env.CLIENT_DIST ?? join(import.meta.dirname, '../../client/dist'));
const app = express();
app.get('/health', async (_req, res) => {
  const api = await fetch(`${apiUrl}/health`).then((r) => r.ok, () => false);
  res.status(api ? 200 : 503).json({ code: api ? 200 : 503, msg: api ? 'ok' : 'api unreachable', data: { api } });
});
if (existsSync(dist)) {
  app.use(express.static(dist, { index: false }));
  app.get('/{*path}', (_req, res) => res.sendFile(join(dist, 'index.html')));
}
const server = app.listen(port, () => console.log(JSON.stringify({ level: 30, msg: `gateway listening on ${port}` })));
const stop = () => server.close(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
