import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import express, { type Router } from 'express';

/** Where the built console is, unless CLIENT_DIST says otherwise. */
export const DEFAULT_CLIENT_DIST = resolve(import.meta.dirname, '../../client/dist');

const NOT_CLIENT_ROUTE = /^\/(api|socket\.io|health|metrics)(\/|$)/;

/**
 * Serves the built console: hashed files under /assets are cached for a year, everything else
 * is revalidated, and any other GET that wants HTML gets index.html (client-side routes).
 */
export function staticClient(dist = DEFAULT_CLIENT_DIST): Router {
  const router = express.Router();
  const root = resolve(dist);
  const index = join(root, 'index.html');

  router.use(
    '/assets',
    express.static(join(root, 'assets'), { immutable: true, maxAge: '365d', index: false, fallthrough: false }),
  );
  router.use(
    express.static(root, {
      index: false,
      setHeaders: (res, path) => {
        if (path.endsWith('.html')) res.setHeader('cache-control', 'no-cache');
      },
    }),
  );
  router.get('/{*path}', (req, res, next) => {
    if (NOT_CLIENT_ROUTE.test(req.path) || !req.accepts('html')) return next();
    if (!existsSync(index)) {
      res.status(503).type('text/plain').send('The console has not been built yet: run `npm run build`.');
      return;
    }
    res.setHeader('cache-control', 'no-cache');
    res.sendFile(index);
  });
  return router;
}
